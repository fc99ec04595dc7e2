import { Range, rangeWords, RequestPlan, spentWords, SpentBesidePlan, Unfinished, unfinishedWords } from '@gauntlet/domain';
import { clock } from './progress';

const PACE_WORDS: Record<RequestPlan['pace']['source'], string> = {
  told: "the target's max_requests_per_second",
  measured: 'measured just now with one request',
  previous_scan: "its previous scan's pace",
  assumed: 'assumed: an answer in 2 s; --measure-pace measures it with one request',
};

const OUTLOOK_WORDS: Record<NonNullable<RequestPlan['budget']>['outlook'], string> = {
  holds: 'the plan stays within it',
  may_stop: 'the scan may stop at it (the plan can pass it)',
  stops: 'the scan will stop at it (even the least the plan sends passes it)',
};

const money = (n: number) => (n >= 1 ? n.toFixed(2) : n.toPrecision(2));
const seconds = (s: number) => clock(s * 1000);

/** `requests   95..816, likely 260  (recon 1, probe 94..140, amplify 0..675)`: a plan as a person reads it */
export function planLines(plan: RequestPlan): string[] {
  const phase = (name: string, r: Range) => `${name} ${r.min === r.max ? r.min : `${r.min}..${r.max}`}`;
  const { by_phase } = plan;
  const lines = [
    `requests  ${rangeWords(plan.requests)}  (${[phase('recon', by_phase.recon), phase('probe', by_phase.probe), phase('amplify', by_phase.amplify)].join(', ')})`,
    `tokens    sent ${rangeWords(plan.tokens.sent)}; received ${rangeWords(plan.tokens.received)} (estimated, ${plan.answer_tokens.per_answer.toLocaleString('en')} an answer${plan.answer_tokens.source === 'assumed' ? ', assumed' : ", as its previous scan's"})`,
    `time      ${rangeWords(plan.seconds, seconds)} at ${plan.pace.requests_per_second} requests a second (${PACE_WORDS[plan.pace.source]})`,
  ];
  if (plan.cost) lines.push(`cost      ${rangeWords(plan.cost, money)} (at the prices given, in their currency)`);
  if (plan.attacker) lines.push(`attacker  ${rangeWords(plan.attacker.requests)} requests to the attacker model (apart from the target's)`);
  if (plan.judge) lines.push(`judge     ${rangeWords(plan.judge.requests)} requests to the judge model (apart from the target's)`);
  if (plan.budget) {
    const limits = (['max_requests', 'max_tokens', 'max_cost'] as const).filter((l) => plan.budget![l] !== undefined).map((l) => `${l} ${plan.budget![l]}`);
    if (limits.length) lines.push(`budget    ${limits.join(', ')}: ${OUTLOOK_WORDS[plan.budget.outlook]}`);
  }
  return lines;
}

/** the scan's last lines about what it spent: beside its plan, and where a budget stopped it */
export function spentLines(spent: SpentBesidePlan, unfinished: Unfinished | null | undefined): string[] {
  const lines = [`spent: ${spentWords(spent)}`];
  const models = [spent.attacker && `attacker model ${spent.attacker.requests} requests`, spent.judge && `judge model ${spent.judge.requests} requests`].filter(Boolean);
  if (models.length) lines.push(`spent apart from the target: ${models.join(', ')}`);
  if (unfinished) lines.push(unfinishedWords(unfinished));
  return lines;
}
