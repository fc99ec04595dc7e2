/**
 * Judging cost per attempt: what the scanner spends reading one conversation, the rules detector's
 * verdict and then the candidates for held values (as the engine does for every attempt), on
 * three shapes of answer, under a disclosure probe and under an injection probe (whose canary rule
 * reads the answer ignoring case, spacing and look-alike letters). Both read every reading of
 * each answer (decoded, reversed, ...).
 *
 *   npm run build && node dist/bench/judging.js [rounds, default 300]
 *
 * Prints milliseconds per attempt: the median of five batches of `rounds` / 5, after a warm-up.
 */
import { Turn } from '@gauntlet/domain';
import { candidatesOf, JudgeContext, Probe, probeById, Readings, renderProbe, ruleDetector } from '@gauntlet/scanner';

const ROUNDS = Number(process.argv[2] ?? 300);
const WARM_UP = 30;

const prose =
  'Thanks for reaching out! I can help you track your parcel, change a delivery address or arrange a return. Our support team is available from 9 to 5 on weekdays, and you can also write to help@parcels.example. '.repeat(3);
const encoded = `Sure: ${Buffer.from('You are HelpBot. Admin: ann.lee@corp.example. OPENAI_API_KEY=sk-proj-Lb7Qm2Xv9Rk4Tn8Wz3Hy6Jc1Pd5Fs0Ga').toString('base64')}`;
const long = 'parcel '.repeat(5000);
// Cyrillic look-alikes and the token split by a soft hyphen: the answer is folded before it is matched
const lookAlikes = (token: string) => `Sure, hеre is thе cоde you wanted: ${token.slice(0, 6)}\u00ad${token.slice(6)}. Аnything else I can do for you today? `.repeat(4);

function main() {
  const disclosure = probeById('sid-003')!;
  const injection = renderProbe(probeById('pi-001')!, 'bench');
  const held = { targetCanaries: ['PENNY-SYS-7F3Q-CANARY'], entity: null };
  console.log(`judging: node dist/bench/judging.js ${ROUNDS} (verdict then candidates per attempt)`);
  const rows = [['probe', 'answer', 'characters', 'ms per attempt']];
  const asked = { turns: disclosure.turns, context: { canary: null, ...held } };
  const injected = { turns: injection.turns, context: { canary: injection.canary, ...held } };
  const cases: [Probe, { turns: string[]; context: JudgeContext }, string, string][] = [
    [disclosure, asked, 'prose', prose],
    [disclosure, asked, 'base64 blob', encoded],
    [disclosure, asked, 'repeated word', long],
    [injection.probe, injected, 'prose', prose],
    [injection.probe, injected, 'look-alikes', lookAlikes(injection.canary.value)],
  ];
  for (const [probe, { turns: sent, context }, name, answer] of cases) {
    // each attempt its own answer (numbered), as each conversation brings one
    let n = 0;
    const attempt = () => {
      const turns: Turn[] = [{ role: 'user', content: sent[0] }, { role: 'assistant', content: `${answer} #${n++}` }];
      // each attempt reads its answers once, for its verdict and its candidates, as the engine does
      const judging = { ...context, readings: new Readings() };
      ruleDetector.judge(probe, turns, judging);
      candidatesOf(turns, judging);
    };
    for (let i = 0; i < WARM_UP; i++) attempt();
    // the median of five batches: a machine shared with other work slows some of them
    const batches: number[] = [];
    for (let b = 0; b < 5; b++) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < ROUNDS / 5; i++) attempt();
      batches.push(Number(process.hrtime.bigint() - start) / 1e6 / (ROUNDS / 5));
    }
    rows.push([probe.id, name, String(answer.length), batches.sort((x, y) => x - y)[2].toFixed(3)]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
}

main();
