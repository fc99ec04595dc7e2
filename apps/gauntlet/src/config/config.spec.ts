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
