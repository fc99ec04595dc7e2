import { checkOutboundUrl, refusalReason } from './address-policy';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('refusalReason', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['127.255.0.7', /loopback/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.254', /private/],
    ['192.168.1.10', /private/],
    ['100.64.0.1', /private/],
    ['::1', /loopback/],
    ['[::1]', /loopback/],
    ['fc00::1', /private/],
    ['fd12:3456::1', /private/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /private/],
  ])('refuses %s unless private addresses are allowed', (address, reason) => {
    expect(refusalReason(address, strict)).toMatch(reason);
    expect(refusalReason(address, lenient)).toBeNull();
  });

  it.each([
    '169.254.169.254', // AWS, GCP, Azure, OCI metadata
    '169.254.170.2', // ECS task credentials
    '169.254.0.1',
    '100.100.100.200', // Alibaba Cloud metadata
    'fd00:ec2::254', // AWS metadata over IPv6
    '[fd00:ec2::254]',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
  ])('refuses the metadata or link-local address %s even when private addresses are allowed', (address) => {
    expect(refusalReason(address, strict)).toMatch(/metadata/);
    expect(refusalReason(address, lenient)).toMatch(/metadata/);
  });

  it.each(['0.0.0.0', '0.1.2.3', '::', '[::]', '::ffff:0.0.0.0', '0:0:0:0:0:0:0:0'])(
    'refuses the unspecified address %s under any policy',
    (address) => {
      expect(refusalReason(address, strict)).toMatch(/unspecified/);
      expect(refusalReason(address, lenient)).toMatch(/unspecified/);
    },
  );

  it.each([
    '::ffff:127.0.0.1', // mapped, dotted
    '::ffff:7f00:1', // mapped, hex
    '::FFFF:7F00:0001',
    '0:0:0:0:0:ffff:127.0.0.1',
    '0000:0000:0000:0000:0000:ffff:7f00:0001',
    '::ffff:10.1.2.3',
    '::ffff:c0a8:0101', // 192.168.1.1
    '::ffff:0:127.0.0.1', // IPv4-translated
    '::127.0.0.1', // IPv4-compatible (deprecated)
    '::7f00:1',
    '64:ff9b::127.0.0.1', // NAT64
    '64:ff9b::7f00:1',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:c0a8:101::1', // 6to4 of 192.168.1.1
  ])('reads the IPv4 address inside %s and refuses it', (address) => {
    expect(refusalReason(address, strict)).toMatch(/loopback, private/);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '192.169.0.1', '11.0.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(refusalReason(address, strict)).toBeNull();
      expect(refusalReason(address, lenient)).toBeNull();
    },
  );

  it('says when it is given a name instead of an address', () => {
    expect(refusalReason('example.com', lenient)).toMatch(/not an IP address/);
  });
});

describe('checkOutboundUrl', () => {
  it('accepts public http and https URLs and returns them parsed', () => {
    const check = checkOutboundUrl('https://bot.example.com/v1/chat/completions', strict);
    expect(check).toEqual({ ok: true, url: new URL('https://bot.example.com/v1/chat/completions') });
    expect(checkOutboundUrl('http://8.8.8.8:8080/chat', strict).ok).toBe(true);
    expect(checkOutboundUrl('http://[2606:4700:4700::1111]/', strict).ok).toBe(true);
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'ws://example.com/'])(
    'refuses the non-http scheme of %s',
    (raw) => {
      expect(checkOutboundUrl(raw, lenient)).toEqual({ ok: false, reason: 'must use http or https' });
    },
  );

  it.each(['not a url', '/v1/chat', 'http://', ''])('refuses %j as not an absolute URL', (raw) => {
    expect(checkOutboundUrl(raw, lenient)).toEqual({ ok: false, reason: 'is not a valid absolute URL' });
  });

  it.each(['https://user:pass@example.com/', 'https://user@example.com/', 'https://:secret@example.com/'])(
    'refuses credentials in %s',
    (raw) => {
      const check = checkOutboundUrl(raw, lenient);
      expect(check.ok).toBe(false);
      expect(!check.ok && check.reason).toMatch(/credentials/);
    },
  );

  it.each([
    'http://127.0.0.1:3000/',
    'http://127.1/', // shorthand the URL parser expands
    'http://2130706433/', // 127.0.0.1 as one decimal number
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.0.0.1./',
    'http://10.0.0.5/',
    'http://172.20.1.1/',
    'http://192.168.0.1/',
    'http://[::1]:8080/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://localhost:3000/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses %s unless private addresses are allowed', (raw) => {
    const check = checkOutboundUrl(raw, strict);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(/^refused: .*OUTBOUND_ALLOW_PRIVATE/);
    expect(checkOutboundUrl(raw, lenient).ok).toBe(true);
  });

  it.each(['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/', 'http://0.0.0.0:80/', 'http://0/', 'http://[::]/'])(
    'refuses %s even when private addresses are allowed',
    (raw) => {
      const check = checkOutboundUrl(raw, lenient);
      expect(check.ok).toBe(false);
      expect(!check.ok && check.reason).toMatch(/^refused: .*(metadata|unspecified)/);
    },
  );

  it('leaves other host names to the connect-time check after DNS', () => {
    expect(checkOutboundUrl('http://internal.example/', strict).ok).toBe(true);
  });
});
