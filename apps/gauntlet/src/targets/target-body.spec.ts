import 'reflect-metadata';
import Ajv from 'ajv';
import { endpointProblem } from '@gauntlet/domain';
import { validationPipe } from '../http/validation';
import { RegisterTargetBody } from './dto';

describe('a target body as the api reads it', () => {
  // what the validation pipe does with a body: the body's @AsPairs fields as pairs, then mapping and validation
  const pipe = validationPipe();
  const read = async (plain: object) => {
    try {
      const body = (await pipe.transform(plain, { type: 'body', metatype: RegisterTargetBody })) as RegisterTargetBody;
      return { body, errors: [] as string[] };
    } catch (err: any) {
      return { body: null as unknown as RegisterTargetBody, errors: (err.extras?.errors ?? [{ field: '?' }]).map((e: { field: string }) => e.field) as string[] };
    }
  };
  const api = { name: 'gw', url: 'https://gw.example/v1', scan_mode: 'api', api_format: 'openai' };

  it('given headers named like what every object inherits, when read, then each is kept as a header', async () => {
    const { body, errors } = await read({ ...api, headers: JSON.parse('{"constructor":"a","__defineGetter__":"b","X-Tenant":"c"}') });
    expect(errors).toEqual([]);
    expect(body.headers).toEqual([['constructor', 'a'], ['__defineGetter__', 'b'], ['X-Tenant', 'c']]);
  });

  it('given tools in each accepted form, when read, then they pass as given', async () => {
    const tool = { name: 'refund', description: 'Refund', parameters: { type: 'object', properties: {} }, risk: 'financial' };
    for (const tools of ['decoy', 'none', [tool], [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } }, risk: 'read' }], { mcp: { url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer k' } } }]) {
      const { body, errors } = await read({ ...api, tools });
      expect(errors).toEqual([]);
      expect(body.tools).toEqual(tools);
    }
  });

  it('given tools that break the rules, when read, then the field is refused', async () => {
    for (const tools of ['all', [{ name: 'x', risk: 'harmless' }], { mcp: { url: 'ftp://x' } }, { mcp: { url: 'https://m.example', token: 'x' } }, { mcp: { url: 'https://m.example', headers: { 'bad name': 'v' } } }, { mcp: { url: 'https://m.example', headers: 'Bearer x' } }, { mcp: { url: 'https://m.example', headers: ['a: b'] } }, { other: 1 }]) {
      expect((await read({ ...api, tools })).errors).toEqual(['tools']);
    }
  });

  it('given a header name outside the HTTP token grammar, when read, then it is refused', async () => {
    const { errors } = await read({ ...api, headers: { 'x bad': 'v' } });
    expect(errors).toEqual(['headers']);
  });
});

describe('the OpenAPI rules of a target body agree with what registering it decides', () => {
  const rules = Reflect.getMetadata('gauntlet:openapi:schema-rules', RegisterTargetBody);
  const valid = new Ajv({ strict: false }).compile(rules);
  const body = (over: object) => ({ name: 'x', url: 'https://h.example/v1', scan_mode: 'api', ...over });

  it.each([
    [{ api_format: 'gemini' }],
    [{ api_format: 'gemini', model: 'gemini-2.0-flash' }],
    [{ api_format: 'gemini', url: 'https://h.example/v1beta/models/gemini-2.0-flash:generateContent' }],
    [{ api_format: 'ollama' }],
    [{ api_format: 'ollama', model: 'llama3.2' }],
    [{ api_format: 'azure-openai' }],
    [{ api_format: 'azure-openai', url: 'https://r.openai.azure.com/openai/deployments/gpt4o' }],
    [{ api_format: 'azure-openai', model: 'gpt4o' }],
    [{ api_format: 'openai' }],
    [{ api_format: 'anthropic' }],
    [{ api_format: 'openai-responses' }],
  ])('%j: schema-valid exactly when the domain accepts it', (over) => {
    const b = body(over) as unknown as { api_format: any; url: string; model?: string };
    const accepted = endpointProblem({ api_format: b.api_format, url: b.url, model: b.model ?? null }) === null;
    expect(valid(b)).toBe(accepted);
  });
});
