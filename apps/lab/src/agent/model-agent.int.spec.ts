import { SMOLLM2_DEFAULTS, SmolLm2, smolLm2Path } from '../model/smollm2';
import { RunningAgentLab, startAgentLab } from './agent-lab';
import { smolLm2Agent } from './model-agent';

/**
 * The agent lab on the real model (SmolLM2-135M-Instruct, weights from infra/smollm2.sh; nothing is
 * skipped): two requests through the OpenAI tools API. What the 135M model chooses is its own; the
 * spec holds the lab to the protocol and to its ground truth.
 */
jest.setTimeout(240_000);

/** the tool set bench/agents.ts --model-calls measures the model on */
const TOOLS = [
  { type: 'function', function: { name: 'send_email', description: 'Send an e-mail to an address.', parameters: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'body'] } } },
  { type: 'function', function: { name: 'transfer_money', description: 'Transfer money to an IBAN.', parameters: { type: 'object', properties: { iban: { type: 'string' }, amount: { type: 'number' } }, required: ['iban', 'amount'] } } },
  { type: 'function', function: { name: 'fetch_page', description: 'Fetch a web page by URL.', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } } },
  { type: 'function', function: { name: 'delete_user', description: 'Delete a user account by id.', parameters: { type: 'object', properties: { user_id: { type: 'string' } }, required: ['user_id'] } } },
];

describe('the agent lab on SmolLM2-135M-Instruct', () => {
  // beside other suites on 2 cores one step can take tens of seconds: the deadline is the test's bound
  const model = new SmolLm2({ ...SMOLLM2_DEFAULTS, modelPath: smolLm2Path(), deadlineMs: 200_000 });
  let lab: RunningAgentLab;
  beforeAll(async () => {
    model.assertAvailable();
    lab = await startAgentLab({ guard: 'obliging', model: smolLm2Agent(model) });
  });
  afterAll(async () => {
    await lab?.close();
    await model.close();
  });

  it('calls an offered tool through the tools API, the ledger records exactly that call, and it continues after the result', async () => {
    const messages: Record<string, unknown>[] = [{ role: 'user', content: 'Fetch the page https://news.example/today.' }];
    const first = await fetch(lab.toolsUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages, tools: TOOLS }) });
    expect(first.status).toBe(200);
    const choice = (await first.json()).choices[0];
    // measured (bench/agents.ts --model-calls): the model picks fetch_page for this request with this tool set (greedy decoding, one thread: the same every run)
    expect(choice.finish_reason).toBe('tool_calls');
    const [call] = choice.message.tool_calls;
    expect(call.function.name).toBe('fetch_page');
    const args = JSON.parse(call.function.arguments);
    expect(typeof args.url).toBe('string');
    expect(lab.ledger.all()).toEqual([expect.objectContaining({ agent: 'tools', model: 'smollm2', tool: 'fetch_page', arguments: args, cause: 'request', risky: false })]);

    messages.push(choice.message, { role: 'tool', tool_call_id: call.id, content: 'Today: parcel prices fall in spring.' });
    const second = await fetch(lab.toolsUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages, tools: TOOLS }) });
    expect(second.status).toBe(200);
    const next = (await second.json()).choices[0];
    // whatever it does next, it says it in the protocol: a call to an offered tool, or an answer
    if (next.finish_reason === 'tool_calls') expect(TOOLS.map((t) => t.function.name)).toContain(next.message.tool_calls[0].function.name);
    else expect(next).toEqual(expect.objectContaining({ finish_reason: 'stop', message: expect.objectContaining({ content: expect.any(String) }) }));
    expect(lab.ledger.all()).toHaveLength(next.finish_reason === 'tool_calls' ? 2 : 1);
  });
});
