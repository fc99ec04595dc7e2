import { ConfigError, loadConfig } from './config';

// given secrets, loading touches no file
const base = { JWT_SECRET: 'x'.repeat(32), SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') };

describe('configuration of the optional models', () => {
  it('none unless configured: nothing is ever contacted', () => {
    expect(loadConfig(base)).toMatchObject({ judge: null, attacker: null });
  });

  it('an attacker model and a judge, each from its URL, model and key', () => {
    const config = loadConfig({ ...base, ATTACKER_URL: 'https://llm.example/v1', ATTACKER_MODEL: 'red', ATTACKER_API_KEY: 'k', JUDGE_URL: 'http://127.0.0.1:8/v1', JUDGE_MODEL: 'j' });
    expect(config.attacker).toEqual({ url: 'https://llm.example/v1', model: 'red', apiKey: 'k' });
    expect(config.judge).toEqual({ url: 'http://127.0.0.1:8/v1', model: 'j', apiKey: null });
  });

  it.each([
    [{ ATTACKER_URL: 'https://llm.example/v1' }, 'Invalid configuration: ATTACKER_MODEL must be set when ATTACKER_URL is set'],
    [{ ATTACKER_MODEL: 'red' }, 'Invalid configuration: ATTACKER_URL must be set when ATTACKER_MODEL is set'],
    [{ ATTACKER_URL: 'ftp://llm.example', ATTACKER_MODEL: 'red' }, 'Invalid configuration: ATTACKER_URL must be a http: or https: URL'],
    [{ JUDGE_URL: 'not a url', JUDGE_MODEL: 'j' }, 'Invalid configuration: JUDGE_URL must be a http: or https: URL'],
  ])('refuses half a model: %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});

describe('configuration of the scanning browser and the connection check', () => {
  it('defaults: the browser is found, checks are bounded and budgeted', () => {
    expect(loadConfig(base)).toMatchObject({ chromiumPath: null, targetCheckDeadlineMs: 60_000, browserOperationTimeoutMs: 5_000, browserNavigationTimeoutMs: 30_000, targetChecksInFlight: 2, targetChecksPerHour: 60 });
  });

  it('takes a named browser and other bounds', () => {
    const config = loadConfig({ ...base, CHROMIUM_PATH: '/opt/chrome/chrome', TARGET_CHECK_DEADLINE_MS: '15000', BROWSER_OPERATION_TIMEOUT_MS: '2000', BROWSER_NAVIGATION_TIMEOUT_MS: '10000', TARGET_CHECKS_IN_FLIGHT: '1', TARGET_CHECKS_PER_HOUR: '10' });
    expect(config).toMatchObject({ chromiumPath: '/opt/chrome/chrome', targetCheckDeadlineMs: 15_000, browserOperationTimeoutMs: 2_000, browserNavigationTimeoutMs: 10_000, targetChecksInFlight: 1, targetChecksPerHour: 10 });
  });

  it.each([
    [{ TARGET_CHECK_DEADLINE_MS: '10' }, 'TARGET_CHECK_DEADLINE_MS must be between 1000 and 600000'],
    [{ TARGET_CHECKS_IN_FLIGHT: '0' }, 'TARGET_CHECKS_IN_FLIGHT must be between 1 and 100'],
    [{ BROWSER_OPERATION_TIMEOUT_MS: 'soon' }, 'BROWSER_OPERATION_TIMEOUT_MS must be a whole number'],
    [{ BROWSER_NAVIGATION_TIMEOUT_MS: '500' }, 'BROWSER_NAVIGATION_TIMEOUT_MS must be between 1000 and 300000'],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});

describe('configuration of the Kafka bus', () => {
  it('six partitions and a 30 s consumer group session unless set', () => {
    expect(loadConfig(base)).toMatchObject({ kafkaPartitions: 6, kafkaSessionTimeoutMs: 30_000 });
    expect(loadConfig({ ...base, KAFKA_PARTITIONS: '4', KAFKA_SESSION_TIMEOUT_MS: '10000' })).toMatchObject({ kafkaPartitions: 4, kafkaSessionTimeoutMs: 10_000 });
  });

  it('refuses a session the broker would refuse', () => {
    expect(() => loadConfig({ ...base, KAFKA_SESSION_TIMEOUT_MS: '3000' })).toThrow('KAFKA_SESSION_TIMEOUT_MS must be between 6000 and 1800000');
  });
});

describe('configuration of the callback listener', () => {
  it('listens under the public base URL by default, or where CALLBACK_BASE_URL says (a proxy or tunnel in front of /oob)', () => {
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: 'https://gauntlet.example.com/' }).callbackBaseUrl).toBe('https://gauntlet.example.com/oob');
    expect(loadConfig({ ...base, CALLBACK_BASE_URL: 'https://cb.example.net/hooks/' }).callbackBaseUrl).toBe('https://cb.example.net/hooks');
  });

  it('plants e-mail domains under CALLBACK_DOMAIN and answers DNS for it on CALLBACK_DNS_PORT only when asked', () => {
    expect(loadConfig(base)).toMatchObject({ callbackDomain: null, callbackDnsPort: null, callbackDnsAnswers: [] });
    // the DNS listener on loopback unless told, whatever HOST the API binds
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).callbackDnsHost).toBe('127.0.0.1');
    expect(loadConfig({ ...base, HOST: '0.0.0.0', CALLBACK_DNS_HOST: '0.0.0.0' }).callbackDnsHost).toBe('0.0.0.0');
    expect(loadConfig({ ...base, CALLBACK_DOMAIN: 'OOB.Example.com.', CALLBACK_DNS_PORT: '5353', CALLBACK_DNS_ANSWER: '203.0.113.9, 2001:db8::1' })).toMatchObject({
      callbackDomain: 'oob.example.com', callbackDnsPort: 5353, callbackDnsAnswers: ['203.0.113.9', '2001:db8::1'],
    });
  });

  it.each([
    [{ CALLBACK_DOMAIN: 'https://oob.example.com' }, 'Invalid configuration: CALLBACK_DOMAIN must be a domain name'],
    [{ CALLBACK_DOMAIN: 'localhost' }, 'Invalid configuration: CALLBACK_DOMAIN must be a domain name'],
    [{ CALLBACK_DOMAIN: `${'a'.repeat(60)}.${'b'.repeat(60)}.com` }, 'Invalid configuration: CALLBACK_DOMAIN must be at most 100 characters'],
    [{ CALLBACK_DNS_PORT: '5353' }, 'Invalid configuration: CALLBACK_DNS_PORT needs CALLBACK_DOMAIN'],
    [{ CALLBACK_DOMAIN: 'oob.example.com', CALLBACK_DNS_ANSWER: 'oob.example.com' }, 'Invalid configuration: CALLBACK_DNS_ANSWER must be IPv4 or IPv6 addresses'],
    [{ CALLBACK_BASE_URL: 'ftp://cb.example.net' }, 'Invalid configuration: CALLBACK_BASE_URL must be a http: or https: URL'],
    [{ CALLBACK_BASE_URL: 'not a url' }, 'Invalid configuration: CALLBACK_BASE_URL must be a http: or https: URL'],
    [{ CALLBACK_BASE_URL: 'https://cb.example.net/oob?x=1' }, 'Invalid configuration: CALLBACK_BASE_URL must not carry a query or fragment'],
    [{ CALLBACK_DNS_HOST: 'everywhere' }, 'Invalid configuration: CALLBACK_DNS_HOST must be an IPv4 or IPv6 address'],
    [{ CALLBACK_DOMAIN: 'example.com', PUBLIC_BASE_URL: 'https://gauntlet.example.com' }, "Invalid configuration: CALLBACK_DOMAIN covers PUBLIC_BASE_URL's host gauntlet.example.com: requests to the service itself would be heard as callbacks"],
    [{ CALLBACK_DOMAIN: 'oob.example.com', PUBLIC_BASE_URL: 'https://gauntlet.example.com', CALLBACK_BASE_URL: 'https://OOB.example.com/oob' }, "Invalid configuration: CALLBACK_DOMAIN covers CALLBACK_BASE_URL's host oob.example.com"],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
