import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main';
import { defaultIo } from './io';

/**
 * gauntlet.yaml is checked whole before the first request: every target against the service's
 * own rules (its request body and its settings rules), each problem with its file, line and
 * column, in the CLI's words. A target that would be scanned first is not contacted.
 */
describe('gauntlet scan checks the whole gauntlet.yaml first', () => {
  jest.setTimeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-config-check-'));
  let requests = 0;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  async function scan(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['scan', ...args, '--data-dir', join(dir, 'data')], {
      ...defaultIo, cwd: dir, env: { PATH: process.env.PATH }, stdout: (l) => out.push(l), stderr: (l) => err.push(l), isTty: false,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('names every bad target by file:line:column before scanning the good one', async () => {
    const file = join(dir, 'gauntlet.yaml');
    writeFileSync(file, [
      'profile: quick',
      'targets:',
      `  - name: good`,
      `    url: ${url}`,
      '  - name: typo',
      '    url: htp//example',
      '  - name: shaped',
      `    url: ${url}`,
      '    format: http',
      '',
    ].join('\n'));
    const r = await scan([]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}:6:5: targets[1].url must be a URL address`);
    expect(r.err).toContain(`${file}:7:5: targets[2]: http: {body_template, response_path} is required when format is http`);
    expect(r.err).not.toMatch(/api_format|scan_mode/);
    expect(requests).toBe(0);
  });

  it('says a flag target\'s problem with the flags', async () => {
    const r = await scan([url, '--format', 'http']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('gauntlet: error: --body-template and --response-path (http: in gauntlet.yaml) is required when --format is http');
    expect(r.err).not.toMatch(/api_format|scan_mode/);
    const half = await scan([url, '--format', 'http', '--body-template', '{"q":"{{prompt}}"}']);
    expect(half.err).toContain('--response-path is needed too');
    expect(requests).toBe(0);
  });
});

describe('gauntlet forget', () => {
  jest.setTimeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-forget-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('forgets a target of the data folder by name, and says which exist when the name is unknown', async () => {
    const dataDir = join(dir, 'data');
    const { LocalService } = await import('./scan/local-service');
    const service = await LocalService.open({ dataDir, allowPrivate: true, env: {} });
    await service.upsertTarget({ name: 'typo', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' } as never);
    await service.close();
    const run = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(args, { ...defaultIo, cwd: dir, env: {}, stdout: (l) => out.push(l), stderr: (l) => err.push(l), isTty: false });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const forgot = await run(['forget', 'typo', '--data-dir', dataDir]);
    expect(forgot).toMatchObject({ code: 0 });
    expect(forgot.out).toMatch(/^gauntlet: forgot target typo \(http:\/\/127\.0\.0\.1:9\/v1, id [0-9a-f-]{36}\)/);
    const again = await run(['forget', 'typo', '--data-dir', dataDir]);
    expect(again.code).toBe(2);
    expect(again.err).toContain('no target "typo"');
  });
});
