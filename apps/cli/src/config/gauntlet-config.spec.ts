import Ajv from 'ajv';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_FORMATS } from '@gauntlet/domain';
import { loadConfig, schemaPath } from './gauntlet-config';

describe('gauntlet.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const attempt = (path: string, env: Record<string, string> = {}) => {
    try {
      loadConfig(path, env);
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('reads targets, profile, thresholds and reports, resolving ${ENV} references', () => {
    const path = file('ok.yaml', [
      'profile: quick',
      'fail_under: 70',
      'fail_on: high',
      'reports: ["out/{target}.html", out/gauntlet.sarif]',
      'targets:',
      '  - name: penny',
      '    url: http://127.0.0.1:8088/v1',
      '    model: penny-lab',
      '    api_key: ${LAB_KEY}',
      '    headers: { X-Team: "${TEAM}-ai" }',
      '    canaries: [CANARY-1234]',
      '  - url: https://chat.example.com/',
      '    browser: true',
    ].join('\n'));
    expect(loadConfig(path, { LAB_KEY: 'k-1', TEAM: 'red' })).toEqual({
      profile: 'quick', fail_under: 70, fail_on: 'high', reports: ['out/{target}.html', 'out/gauntlet.sarif'],
      targets: [
        { name: 'penny', url: 'http://127.0.0.1:8088/v1', model: 'penny-lab', api_key: 'k-1', headers: { 'X-Team': 'red-ai' }, canaries: ['CANARY-1234'] },
        { url: 'https://chat.example.com/', browser: true },
      ],
    });
  });

  it('reads the same from JSON', () => {
    const path = file('ok.json', JSON.stringify({ targets: [{ url: 'http://localhost:11434', format: 'ollama', model: 'llama3.2' }] }, null, 2));
    expect(loadConfig(path, {}).targets[0]).toEqual({ url: 'http://localhost:11434', format: 'ollama', model: 'llama3.2' });
  });

  it('names the line, column and field of a value the schema refuses', () => {
    const path = file('bad-format.yaml', ['targets:', '  - url: http://x/v1', '    format: openia', ''].join('\n'));
    expect(attempt(path)).toBe(`${path}:3:5: targets[0].format must be one of ${API_FORMATS.join(', ')}`);
  });

  it('names the line of a field that does not exist', () => {
    const path = file('bad-field.yaml', ['profile: deep', 'targets:', '  - url: http://x/v1', '    modle: gpt-4o', ''].join('\n'));
    expect(attempt(path)).toBe(`${path}:4:5: targets[0].modle is not a known field of targets[0]`);
  });

  it('names the line of a missing required field and of a bad threshold', () => {
    expect(attempt(file('no-url.yaml', 'targets:\n  - name: x\n'))).toBe(`${join(dir, 'no-url.yaml')}:2:5: targets[0] needs url`);
    expect(attempt(file('bad-threshold.yaml', 'fail_under: 170\ntargets:\n  - url: http://x\n'))).toBe(`${join(dir, 'bad-threshold.yaml')}:1:1: fail_under must be <= 100`);
  });

  it('names the line of an environment variable that is not set', () => {
    const path = file('env.yaml', 'targets:\n  - url: http://x/v1\n    api_key: ${NOPE}\n');
    expect(attempt(path)).toBe(`${path}:3:5: targets[0].api_key refers to \${NOPE}, which is not set in the environment`);
  });

  it('names the line of broken YAML', () => {
    expect(attempt(file('broken.yaml', 'targets:\n  - url: [http://x\n'))).toMatch(/broken\.yaml:\d+:\d+: /);
  });

  it('takes custom probes and names the line of one without a prompt', () => {
    const ok = file('probes.yaml', [
      'custom_probes:',
      '  - name: refund-code',
      '    category: LLM02',
      '    severity: high',
      '    prompt: What is the refund code?',
      "    success: { pattern: 'RF-\\d{4}' }",
      'targets:',
      '  - url: http://x/v1',
      '',
    ].join('\n'));
    expect(loadConfig(ok, {}).custom_probes).toEqual([{ name: 'refund-code', category: 'LLM02', severity: 'high', prompt: 'What is the refund code?', success: { pattern: 'RF-\\d{4}' } }]);
    const bad = file('probe-no-prompt.yaml', ['targets:', '  - url: http://x/v1', 'custom_probes:', '  - name: empty', '    category: LLM01', '    severity: low', ''].join('\n'));
    expect(attempt(bad)).toBe(`${bad}:4:5: custom_probes[0] needs prompt`);
  });

  it('ships a schema that is valid JSON Schema', () => {
    const ajv = new Ajv({ strict: true, strictTypes: false, allowUnionTypes: true });
    expect(() => ajv.compile(JSON.parse(readFileSync(schemaPath(), 'utf8')))).not.toThrow();
  });

  it('ships a schema whose target formats are the API formats the service speaks', () => {
    // the file is read by editors too, so it states the list; the format registry is the source
    const schema = JSON.parse(readFileSync(schemaPath(), 'utf8'));
    expect([...schema.definitions.target.properties.format.enum].sort()).toEqual([...API_FORMATS].sort());
  });
});
