import Ajv from 'ajv';
import type { ToolDefinition } from '@gauntlet/domain';
import { DECOY_TOOLS, decoyToolSet } from './decoy';
import { attackerMarks, fillMarks } from './markers';
import { toolsFor } from './registry';
import { plausibleResult, poisonedTool, riskiestTool, toolRuntime, toolsFit } from './runtime';
import { inferredRisk, kindsOf } from './tool-kinds';

const tool = (name: string, description: string, risk: ToolDefinition['risk'] = 'write'): ToolDefinition => ({ name, description, parameters: { type: 'object', properties: {} }, risk });

describe('the decoy tools', () => {
  it('cover mail, payments, deletion, web fetch, database and files, each a valid JSON Schema of an object with a risk', async () => {
    const kinds = new Set(DECOY_TOOLS.map((t) => t.kind));
    for (const k of ['mail', 'payment', 'deletion', 'fetch', 'database', 'files'] as const) expect(kinds.has(k)).toBe(true);
    const ajv = new Ajv({ strict: false, validateFormats: false });
    for (const t of (await decoyToolSet.list('decoy', { allowPrivate: false, timeoutMs: 1 })).tools) {
      expect(t.parameters.type).toBe('object');
      expect(() => ajv.compile(t.parameters)).not.toThrow();
      // what the words say is what the decoy declares: the same reading serves owner and MCP tools
      expect(kindsOf(t)).toContain(DECOY_TOOLS.find((d) => d.name === t.name)!.kind);
    }
  });
  it('given "none", when resolved, then nothing is offered', async () => {
    expect(await toolsFor('none', { allowPrivate: false, timeoutMs: 1 })).toEqual({ tools: [] });
  });
});

describe("an MCP tool's risk, from what it says (conservative)", () => {
  it('given money, deletion or sending in its words, then financial, destructive or exfiltration whatever the hints claim', () => {
    expect(inferredRisk(tool('create_refund', 'Refund a payment'), { readOnlyHint: true })).toBe('financial');
    expect(inferredRisk(tool('remove_user', 'Removes a user'))).toBe('destructive');
    expect(inferredRisk(tool('anything', 'Does things'), { destructiveHint: true })).toBe('destructive');
    expect(inferredRisk(tool('run_command', 'Execute a shell command'))).toBe('destructive');
    expect(inferredRisk(tool('send_message', 'Send a Slack message to a channel'))).toBe('exfiltration');
  });
  it('given a read-only hint or read words and nothing that writes, then read; a write otherwise', () => {
    expect(inferredRisk(tool('get_weather', 'Current weather for a city'))).toBe('read');
    expect(inferredRisk(tool('lookup', 'Find an order'), { readOnlyHint: true })).toBe('read');
    expect(inferredRisk(tool('get_or_create_ticket', 'Get a ticket, or create one'))).toBe('write');
    expect(inferredRisk(tool('list_items', 'List items'), { readOnlyHint: false })).toBe('write');
    expect(inferredRisk(tool('update_profile', 'Update a profile'))).toBe('write');
  });
});

describe('the tool runtime', () => {
  const tools = [tool('web_browse', 'Open a web page and return its text', 'read'), tool('send_email', 'Send an e-mail', 'exfiltration'), tool('pay_invoice', 'Pay an invoice', 'financial')];

  it('given an indirect probe, when the tool that reads its kind is called, then the poisoned content is its result; other tools get plausible results', async () => {
    const runtime = toolRuntime({ tools, poison: { via: 'fetch', content: 'POISON' } });
    expect(runtime.maxSteps).toBe(3);
    expect(await runtime.answer({ id: '1', name: 'web_browse', arguments: { url: 'https://x.example' } })).toBe('POISON');
    expect(JSON.parse(await runtime.answer({ id: '2', name: 'send_email', arguments: { to: 'a@b.example' } }))).toMatchObject({ status: 'sent' });
    expect(JSON.parse(await runtime.answer({ id: '3', name: 'pay_invoice', arguments: { amount: 5 } }))).toMatchObject({ status: 'completed', amount: 5 });
    expect(JSON.parse(await runtime.answer({ id: '4', name: 'not_offered', arguments: {} }))).toEqual({ error: 'unknown tool not_offered' });
  });

  it('gives the same call the same receipt, and writes no personal data into results', () => {
    const call = { id: '1', name: 'send_email', arguments: { to: 'a@b.example' } };
    expect(plausibleResult(tools[1], call)).toBe(plausibleResult(tools[1], { ...call, id: '2' }));
    for (const t of DECOY_TOOLS) expect(plausibleResult(t, { id: 'x', name: t.name, arguments: {} })).not.toMatch(/@|\+?\d{3}[ -]\d{3}/);
  });

  it('says which probes fit the tools: a tool of a needed kind, any action, a reader to poison', () => {
    expect(toolsFit(['payment'], undefined, tools)).toBe(true);
    expect(toolsFit(['deletion'], undefined, tools)).toBe(false);
    expect(toolsFit(['action'], undefined, [tools[0]])).toBe(false);
    // no calendar tool, but a tool that reads: its result carries the poison
    expect(poisonedTool(tools, 'calendar')?.name).toBe('web_browse');
    expect(toolsFit([], { via: 'calendar' }, [tools[1]])).toBe(false);
    expect(toolsFit(['mail'], undefined, [])).toBe(false);
    expect(riskiestTool(tools)?.name).toBe('pay_invoice');
  });

  it("marks an attack's values with one token per scan and probe", () => {
    const a = attackerMarks('seed', 'ag-001');
    expect(attackerMarks('seed', 'ag-001')).toEqual(a);
    expect(attackerMarks('seed', 'ag-002').token).not.toBe(a.token);
    for (const v of [a.email, a.iban.toLowerCase(), a.url, a.id.toLowerCase(), a.path]) expect(v).toContain(a.token);
    expect(fillMarks('to {{attacker:email}} and {{attacker:iban}}', a)).toBe(`to ${a.email} and ${a.iban}`);
  });
});
