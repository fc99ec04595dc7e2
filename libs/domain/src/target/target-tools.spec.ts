import {
  defaultTools, openTools, readTools, readToolDefinitions, sealTools, Sealer, TargetTools, targetToolsProblem, toolsDescription, toolsFlags, toolsFromFlag, toolsFormOf, toolsOf, toolsOutboundUrls, toolsSchema, toolsView, toolsViewSchema,
} from './target-tools';
import { TOOL_RISKS } from '../agent/tools';

describe("the owner's tool definitions", () => {
  it('given the OpenAI function form with a risk beside it, when read, then it is the same definition', () => {
    const fn = { type: 'function', function: { name: 'send_sms', description: 'Sends a text.', parameters: { type: 'object', properties: { to: { type: 'string' } } } }, risk: 'exfiltration' };
    expect(readToolDefinitions([fn])).toEqual({ tools: [{ name: 'send_sms', description: 'Sends a text.', parameters: fn.function.parameters, risk: 'exfiltration' }] });
  });
  it('given a definition without parameters or description, when read, then it takes no arguments and says nothing', () => {
    expect(readToolDefinitions([{ name: 'ping', risk: 'read' }])).toEqual({ tools: [{ name: 'ping', description: '', parameters: { type: 'object', properties: {} }, risk: 'read' }] });
  });
  it('given a schema too large or too deep, when read, then it is refused', () => {
    const big = { type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(20_000) } } };
    expect(readToolDefinitions([{ name: 'a', parameters: big, risk: 'read' }])).toEqual({ problem: { field: 'tools[0].parameters', message: expect.stringMatching(/larger than/) } });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 15; i++) deep = { type: 'object', properties: { x: deep } };
    expect(readToolDefinitions([{ name: 'a', parameters: deep, risk: 'read' }])).toEqual({ problem: { field: 'tools[0].parameters', message: expect.stringMatching(/deeper/) } });
  });
  it('shows an MCP source by its URL and header names, never the sealed headers', () => {
    expect(toolsView({ mcp: { url: 'https://m.example/mcp', headers_encrypted: 'v1.secret', header_names: ['Authorization'] } })).toEqual({ mcp: { url: 'https://m.example/mcp', header_names: ['Authorization'] } });
    expect(toolsView(undefined)).toBeNull();
  });
});

/** a sealer a test can see through: what it seals is reversed and marked, never the plain text */
const box: Sealer = { seal: (plain) => `sealed:${[...plain].reverse().join('')}`, open: (sealed) => [...sealed.slice('sealed:'.length)].reverse().join('') };
const tool = { name: 'refund', description: 'Refunds an order.', parameters: { type: 'object', properties: { order: { type: 'string' } } }, risk: 'financial' };

describe('the tools setting, one owner for every door', () => {
  describe('reading', () => {
    it('given each form the API takes, when read, then it is the setting of that form', () => {
      expect(readTools('decoy')).toEqual({ setting: 'decoy' });
      expect(readTools('none')).toEqual({ setting: 'none' });
      expect(readTools([tool])).toEqual({ setting: [tool] });
      expect(readTools([{ type: 'function', function: { name: 'refund', parameters: tool.parameters }, risk: 'financial' }])).toEqual({ setting: [{ ...tool, description: '' }] });
      expect(readTools({ mcp: { url: 'https://m.example/mcp', headers: { Authorization: 'Bearer k' } } })).toEqual({ setting: { mcp: { url: 'https://m.example/mcp', headers: [['Authorization', 'Bearer k']] } } });
      expect(readTools({ mcp: { url: 'https://m.example/mcp', headers: null } })).toEqual({ setting: { mcp: { url: 'https://m.example/mcp', headers: [] } } });
    });

    it('given a local MCP command, when read at the CLI, then it is taken; when read at the API, then it is refused naming its field', () => {
      expect(readTools({ mcp: { command: 'npx', args: ['-y', 'server'] } }, 'cli')).toEqual({ setting: { mcp: { command: 'npx', args: ['-y', 'server'] } } });
      expect(readTools({ mcp: { command: 'npx' } }, 'cli')).toEqual({ setting: { mcp: { command: 'npx', args: [] } } });
      expect(readTools({ mcp: { command: 'npx' } })).toEqual({ problem: { field: 'tools.mcp.command', message: 'tools.mcp.command is not a field of an MCP source (url, headers).' } });
    });

    it('given a setting that breaks a rule, when read, then the problem names the field and what it should be', () => {
      const problem = (value: unknown, door: 'api' | 'cli' = 'api') => {
        const read = readTools(value, door);
        return 'problem' in read ? read.problem : null;
      };
      expect(problem('all')).toEqual({ field: 'tools', message: 'tools is "decoy", "none", a list of tool definitions or {mcp: {url, headers?}}.' });
      expect(problem({ other: 1 })).toEqual({ field: 'tools', message: expect.stringMatching(/^tools is "decoy"/) });
      expect(problem({ mcp: { url: 'https://m.example' }, other: 1 })?.field).toBe('tools');
      expect(problem(3, 'cli')).toEqual({ field: 'tools', message: 'tools is "decoy", "none", a list of tool definitions, {mcp: {command, args?}} or {mcp: {url, headers?}}.' });
      expect(problem([])).toEqual({ field: 'tools', message: expect.stringMatching(/at least one definition/) });
      expect(problem([{ ...tool, risk: 'harmless' }])).toEqual({ field: 'tools[0].risk', message: `tools[0].risk is one of ${TOOL_RISKS.join(', ')}.` });
      expect(problem([tool, tool])?.field).toBe('tools[1].name');
      expect(problem({ mcp: { url: 'ftp://m.example' } })).toEqual({ field: 'tools.mcp.url', message: 'tools.mcp.url is the http(s) address of an MCP server (Streamable HTTP).' });
      expect(problem({ mcp: {} })?.field).toBe('tools.mcp.url');
      expect(problem({ mcp: { url: `https://m.example/${'a'.repeat(2048)}` } })?.field).toBe('tools.mcp.url');
      expect(problem({ mcp: { url: 'https://m.example', token: 'x' } })).toEqual({ field: 'tools.mcp.token', message: 'tools.mcp.token is not a field of an MCP source (url, headers).' });
      expect(problem({ mcp: { url: 'https://m.example', headers: 'Bearer x' } })?.field).toBe('tools.mcp.headers');
      expect(problem({ mcp: { url: 'https://m.example', headers: ['a: b'] } })?.field).toBe('tools.mcp.headers');
      expect(problem({ mcp: { url: 'https://m.example', headers: { 'bad name': 'v' } } })).toEqual({ field: 'tools.mcp.headers', message: expect.stringMatching(/^tools\.mcp\.headers: /) });
      expect(problem({ mcp: { command: ' ' } }, 'cli')?.field).toBe('tools.mcp.command');
      expect(problem({ mcp: { command: 'npx', args: [1] } }, 'cli')?.field).toBe('tools.mcp.args');
      expect(problem({ mcp: { command: 'npx', env: {} } }, 'cli')?.field).toBe('tools.mcp.env');
    });
  });

  describe('keeping and opening', () => {
    it('given MCP headers, when sealed, then the log holds them sealed and their names in clear; a scan opens them; reads show the names only', () => {
      const kept = sealTools({ mcp: { url: 'https://m.example/mcp', headers: { Authorization: 'Bearer k' } } }, box);
      expect(JSON.stringify(kept)).not.toContain('Bearer k');
      expect(kept).toEqual({ mcp: { url: 'https://m.example/mcp', headers_encrypted: expect.stringMatching(/^sealed:/), header_names: ['Authorization'] } });
      expect(openTools(kept, box)).toEqual({ mcp: { url: 'https://m.example/mcp', headers: { Authorization: 'Bearer k' } } });
      expect(toolsView(kept)).toEqual({ mcp: { url: 'https://m.example/mcp', header_names: ['Authorization'] } });
      expect(sealTools({ mcp: { url: 'https://m.example/mcp' } }, box)).toEqual({ mcp: { url: 'https://m.example/mcp', headers_encrypted: null, header_names: [] } });
    });

    it('given definitions in the OpenAI function form, when sealed, then the log keeps them in the one form', () => {
      expect(sealTools([{ type: 'function', function: { name: 'refund', description: tool.description, parameters: tool.parameters }, risk: 'financial' }], box)).toEqual([tool]);
      expect(sealTools('decoy', box)).toBe('decoy');
      expect(openTools(undefined, box)).toBeNull();
    });

    it('given a setting that breaks a rule, when sealed, then nothing is kept and the problem names the field', () => {
      expect(() => sealTools([{ ...tool, risk: 'harmless' }], box)).toThrow(expect.objectContaining({ code: 'invalid', details: { field: 'tools[0].risk' } }));
    });

    it('given a body the door has read, when it is sealed and the decider checks it, then nothing reads it again', () => {
      let reads = 0;
      const body = new Proxy([tool], { get: (list, key, receiver) => (key === '0' && reads++, Reflect.get(list, key, receiver)) });
      expect(readTools(body)).toEqual({ setting: [tool] });
      const once = reads;
      expect(once).toBeGreaterThan(0);
      const kept = sealTools(body, box);
      expect(targetToolsProblem(kept)).toBeNull();
      expect(reads).toBe(once);
    });

    it('given a kept setting, when the decider checks it, then what was sealed here passes and what breaks a rule is refused by field', () => {
      expect(targetToolsProblem(sealTools([tool], box))).toBeNull();
      expect(targetToolsProblem(undefined)).toBeNull();
      expect(targetToolsProblem([{ ...tool, risk: 'harmless' }] as unknown as TargetTools)?.field).toBe('tools[0].risk');
      expect(targetToolsProblem({ mcp: { url: 'ftp://m.example' } })?.field).toBe('tools.mcp.url');
      expect(targetToolsProblem('all' as TargetTools)?.field).toBe('tools');
      // a local command never reaches the log
      expect(targetToolsProblem({ mcp: { command: 'npx' } } as unknown as TargetTools)).not.toBeNull();
    });
  });

  describe('defaults, forms and addresses', () => {
    it('given a target that says no tools, when its setting is asked, then it is decoy where its API format takes tools and none elsewhere', () => {
      expect(defaultTools({ scan_mode: 'api', api_format: 'openai' })).toBe('decoy');
      expect(defaultTools({ scan_mode: 'api', api_format: 'http' })).toBe('none');
      expect(defaultTools({ scan_mode: 'browser', api_format: null })).toBe('none');
      expect(defaultTools({ scan_mode: 'api' })).toBe('none');
      expect(toolsOf({ scan_mode: 'api', api_format: 'anthropic' })).toBe('decoy');
      expect(toolsOf({ scan_mode: 'api', api_format: 'anthropic', tools: [tool] })).toEqual([tool]);
      expect(toolsOf({ scan_mode: 'api', api_format: 'anthropic', tools: null })).toBe('decoy');
    });

    it('given a setting, when its addresses are asked, then an MCP server is named with its field and nothing else makes Gauntlet call out', () => {
      expect(toolsOutboundUrls({ mcp: { url: 'http://10.1.2.3/mcp' } })).toEqual([{ url: 'http://10.1.2.3/mcp', field: 'tools.mcp.url' }]);
      for (const value of [undefined, 'decoy', 'none', [tool], { mcp: { url: 'ftp://x' } }]) expect(toolsOutboundUrls(value)).toEqual([]);
    });

    it('given each kind of value, when its form is asked, then the scanner can pick the tool set by name', () => {
      expect(['decoy', 'none', [tool], { mcp: { url: 'https://m.example' } }, { mcp: { url: 'https://m.example', headers_encrypted: null, header_names: [] } }, { mcp: { command: 'npx' } }].map((v) => toolsFormOf(v as TargetTools)))
        .toEqual(['decoy', 'none', 'definitions', 'mcp', 'mcp', 'mcp-command']);
      expect(() => toolsFormOf('all' as TargetTools)).toThrow(/no form/);
    });
  });

  describe('describing', () => {
    it('given the API door, when described, then the words come together and the local command is left out', () => {
      const schema = toolsSchema('api');
      expect(schema.oneOf[0]).toEqual({ enum: ['decoy', 'none'] });
      expect(schema.oneOf.map((s) => s.type)).toEqual([undefined, 'array', 'object']);
      expect(JSON.stringify(schema)).not.toContain('command');
      expect(JSON.stringify(toolsSchema('cli'))).toContain('"command"');
      expect(toolsViewSchema().oneOf).toHaveLength(3);
      expect(toolsDescription('api')).toMatch(/"decoy" \(the default there\).*"none": no tools.*tool definitions.*\{mcp: \{url, headers\?\}\}/);
      expect(toolsDescription('api')).not.toContain('command');
      expect(toolsDescription('cli')).toContain('{mcp: {command, args?}}');
    });
  });
});

describe("gauntlet scan's tools flags, as the forms give them", () => {
  const json: Record<string, unknown> = { 'tools.json': [{ name: 'refund', risk: 'financial' }], 'object.json': { name: 'refund' } };
  const readJson = (file: string) => {
    if (!(file in json)) throw new Error(`ENOENT: ${file}`);
    return json[file];
  };
  const from = (flag: string, value: string) => toolsFromFlag(flag, value, readJson);

  it('lists one option a flag, each saying the forms it takes', () => {
    expect(toolsFlags().map((f) => f.option)).toEqual(['--tools <set>', '--mcp-command <cmd>', '--mcp <url>']);
    expect(toolsFlags()[0].help).toBe('what an agent is offered (API formats with tool calling): decoy (default), none or a JSON file of tool definitions [{name, description, parameters, risk}]');
  });

  it('given a word, a file of definitions, an MCP address or a command, when read, then each is the setting of its form', () => {
    const cases: [flag: string, value: string, form: string][] = [
      ['--tools', 'decoy', 'decoy'], ['--tools', 'none', 'none'], ['--tools', 'tools.json', 'definitions'],
      ['--mcp', 'https://mcp.example/mcp', 'mcp'], ['--mcp-command', ' npx -y @acme/mcp-server --stdio ', 'mcp-command'],
    ];
    for (const [flag, value, form] of cases) {
      const read = from(flag, value);
      if (!('setting' in read)) throw new Error(read.problem);
      // the body a flag makes is a setting the owner reads, of the form that gave the flag
      const setting = readTools(read.setting, 'cli');
      expect('setting' in setting && toolsFormOf(setting.setting as TargetTools)).toBe(form);
    }
    expect(from('--mcp-command', 'npx -y @acme/mcp-server')).toEqual({ setting: { mcp: { command: 'npx', args: ['-y', '@acme/mcp-server'] } } });
  });

  it('given what no form of the flag takes, when read, then the problem says the flag and what it takes', () => {
    expect(from('--tools', 'missing.json')).toEqual({ problem: expect.stringMatching(/^--tools missing\.json: not decoy \(default\), none or a JSON file of tool definitions .*\(ENOENT: missing\.json\)$/) });
    expect(from('--tools', 'object.json')).toEqual({ problem: expect.stringMatching(/^--tools object\.json: the file is not a JSON file of tool definitions/) });
    expect(from('--mcp-command', '   ')).toEqual({ problem: expect.stringMatching(/^--mcp-command "": not the tools of a local MCP server/) });
  });
});
