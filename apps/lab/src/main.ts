import { AGENT_GUARDS, AgentGuard } from './agent/agent-brain';
import { startAgentLab } from './agent/agent-lab';
import { smolLm2Agent } from './agent/model-agent';
import { freePortAfter } from '@gauntlet/outbound';
import { WEAKNESSES } from './brain';
import { parseDefenses } from './guardrails';
import { LAB_MODELS, LabModel, parseWeaknesses, startLab } from './lab';
import { PERSONA_IDS } from './model/personas';
import { sharedSmolLm2 } from './model/smollm2';

/**
 * `node dist/apps/lab/src/main.js [--port N] [--mode vulnerable|hardened] [--weaknesses a,b]
 * [--defenses input_keywords,output_secrets,crescendo:3] [--latency-ms N] [--fail-after N] [--rate-limit N]
 * [--rate-burst N] [--api-key KEY] [--model scripted|smollm2] [--persona penny|nora|lakeside|harbor] [--slots N]`; env LAB_* too.
 * `--model smollm2` answers with SmolLM2-135M-Instruct (weights from infra/smollm2.sh) as a persona
 * whose system prompt holds secrets; they are printed here, for the person testing, never served.
 *
 * `--agent [--agent-guard obliging|guarded|safe|talker] [--model scripted|smollm2]` (LAB_AGENT=1,
 * LAB_AGENT_GUARD) serves the agent lab instead (agent/agent-lab.ts): a tool-calling agent on the
 * OpenAI tools API and Anthropic tool_use, an agent app that fetches URLs for real, and the ground
 * truth of what they did at /lab/agent/calls.
 * `--slots N` lets it generate N answers at once (one context sequence each), as a model server's
 * parallel slots do; more wait their turn.
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`${name} must be a non-negative integer, got "${value}"`);
    process.exit(1);
  }
  return n;
}

/** the port or address is not ours to take: one line naming the flag or variable that picks another */
async function listenProblem(e: unknown, port: number, host: string): Promise<string> {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') {
    // the port suggested is one free now
    const free = await freePortAfter(port, host);
    return `port ${port} on ${host} is already in use (a lab left running, perhaps): choose another with --port or LAB_PORT${free === null ? '' : `, e.g. npm run lab -- --port ${free}`}`;
  }
  if (code === 'EACCES') return `port ${port} needs privileges this user lacks: choose one above 1023 with --port or LAB_PORT`;
  if (code === 'EADDRNOTAVAIL') return `address ${host} is not one of this machine's: set LAB_HOST to one of its addresses, or 0.0.0.0 for every interface`;
  return `the lab failed to start: ${(e as Error)?.message ?? String(e)}`;
}

async function agentLab() {
  const guard = (arg('agent-guard') ?? process.env.LAB_AGENT_GUARD ?? 'obliging') as AgentGuard;
  if (!AGENT_GUARDS.includes(guard)) {
    console.error(`LAB_AGENT_GUARD must be one of ${AGENT_GUARDS.join(', ')}, got "${guard}"`);
    process.exit(1);
  }
  const model = arg('model') ?? process.env.LAB_MODEL ?? 'scripted';
  if (model !== 'scripted' && model !== 'smollm2') {
    console.error(`LAB_MODEL must be scripted or smollm2, got "${model}"`);
    process.exit(1);
  }
  const persona = arg('persona') ?? process.env.LAB_PERSONA ?? 'penny';
  if (!PERSONA_IDS.includes(persona)) {
    console.error(`LAB_PERSONA must be one of ${PERSONA_IDS.join(', ')}, got "${persona}"`);
    process.exit(1);
  }
  const port = int('LAB_PORT', arg('port') ?? process.env.LAB_PORT) ?? 8088;
  const host = process.env.LAB_HOST ?? '127.0.0.1';
  const languageModel = model === 'smollm2' ? sharedSmolLm2() : null;
  let lab;
  try {
    languageModel?.assertAvailable();
    lab = await startAgentLab({ port, host, guard, persona, model: languageModel ? smolLm2Agent(languageModel) : null, apiKey: arg('api-key') ?? process.env.LAB_API_KEY ?? null });
  } catch (e) {
    console.error(e instanceof Error && !(e as NodeJS.ErrnoException).code ? e.message : listenProblem(e, port, host));
    process.exit(1);
  }
  console.log(`agent lab listening on ${lab.url} (guard ${guard}; ${lab.model === 'scripted' ? 'scripted agent' : `model ${lab.model}`}; persona ${persona})`);
  console.log(`tool-calling agent (OpenAI tools API): ${lab.toolsUrl()}  (Anthropic tool_use at ${lab.url}/v1/messages)`);
  console.log(`agent app (no tools API; fetches the URLs it is given): ${lab.appUrl()}`);
  console.log(`other guard modes: ${lab.url}/guard/<${AGENT_GUARDS.join('|')}>/v1/chat/completions and .../app/v1/chat/completions`);
  console.log(`ground truth (every call and fetch): GET ${lab.url}/lab/agent/calls`);
  console.log(`what its agents hold about the customer (sensitive values to register): ${Object.values(lab.held).join(', ')}`);
  const stop = () => void lab.close().then(() => languageModel?.close()).then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

async function main() {
  const agentFlag = process.argv.includes('--agent') || /^(?:1|true|yes)$/i.test(process.env.LAB_AGENT ?? '');
  if (agentFlag) return agentLab();
  const mode = arg('mode') ?? process.env.LAB_MODE ?? 'vulnerable';
  if (mode !== 'vulnerable' && mode !== 'hardened') {
    console.error(`LAB_MODE must be vulnerable or hardened, got "${mode}"`);
    process.exit(1);
  }
  const model = (arg('model') ?? process.env.LAB_MODEL ?? 'scripted') as LabModel;
  if (!LAB_MODELS.includes(model)) {
    console.error(`LAB_MODEL must be one of ${LAB_MODELS.join(', ')}, got "${model}"`);
    process.exit(1);
  }
  const persona = arg('persona') ?? process.env.LAB_PERSONA ?? 'penny';
  if (!PERSONA_IDS.includes(persona)) {
    console.error(`LAB_PERSONA must be one of ${PERSONA_IDS.join(', ')}, got "${persona}"`);
    process.exit(1);
  }
  let weaknesses;
  let defenses;
  try {
    weaknesses = parseWeaknesses(arg('weaknesses') ?? process.env.LAB_WEAKNESSES);
    defenses = parseDefenses(arg('defenses') ?? process.env.LAB_DEFENSES);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  const port = int('LAB_PORT', arg('port') ?? process.env.LAB_PORT) ?? 8088;
  const host = process.env.LAB_HOST ?? '127.0.0.1';
  let lab;
  try {
    lab = await startLab({
      model,
      persona,
      port,
      host,
      mode,
      weaknesses,
      defenses,
      latencyMs: int('LAB_LATENCY_MS', arg('latency-ms') ?? process.env.LAB_LATENCY_MS),
      failAfter: int('LAB_FAIL_AFTER', arg('fail-after') ?? process.env.LAB_FAIL_AFTER) ?? null,
      streamDelayMs: int('LAB_STREAM_DELAY_MS', process.env.LAB_STREAM_DELAY_MS) ?? 25,
      rateLimit: int('LAB_RATE_LIMIT', arg('rate-limit') ?? process.env.LAB_RATE_LIMIT) || null,
      rateBurst: int('LAB_RATE_BURST', arg('rate-burst') ?? process.env.LAB_RATE_BURST) || 1,
      apiKey: arg('api-key') ?? process.env.LAB_API_KEY ?? null,
      slots: int('LAB_SLOTS', arg('slots') ?? process.env.LAB_SLOTS) || undefined,
    });
  } catch (e) {
    console.error(await listenProblem(e, port, host));
    process.exit(1);
  }
  // the address actually bound: every interface when LAB_HOST says so, the connectable one beside it
  const bound = host === '0.0.0.0' || host === '::' ? `http://${host === '::' ? '[::]' : host}:${new URL(lab.url).port} (every interface; from this machine ${lab.url})` : lab.url;
  if (lab.model === 'scripted') {
    console.log(`lab listening on ${bound} (${mode}; weaknesses: ${lab.weaknesses.join(', ') || 'none'}; of ${WEAKNESSES.length} known; defenses: ${lab.defenses})`);
    console.log(`canaries to register on the target: ${lab.canaries.system}, ${lab.canaries.data}`);
  } else {
    console.log(`lab listening on ${bound} (${mode}; model ${lab.model}, persona ${lab.persona}; defenses: ${lab.defenses})`);
    if (lab.secrets.length) {
      console.log(`canaries to register on the target: ${lab.canaries.system}, ${lab.canaries.data}`);
      console.log('secrets in its system prompt (sensitive values to register on the target):');
      for (const s of lab.secrets) console.log(`  ${s.category} ${s.kind.padEnd(13)} ${s.label}: ${s.value}`);
    } else console.log('its persona holds no secret (hardened)');
  }
  console.log(`OpenAI-compatible API at ${lab.url}/v1 (Anthropic Messages at ${lab.url}/v1/messages); chat page at ${lab.url}/`);
  const stop = () => void lab.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
