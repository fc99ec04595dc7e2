import { ProbeAttempt, Turn } from '@gauntlet/domain';
import { Probe } from '../probes/probe';
import { JudgeContext } from './judge-context';

// the rules read the context without the port (rules/ must not reach probes/probe.ts, which names them)
export type { JudgeContext } from './judge-context';

export type Verdict = ProbeAttempt['verdict'];

/** The Detector port: decides what one conversation with the target proves. */
export interface Detector {
  readonly name: string;
  judge(probe: Probe, turns: readonly Turn[], context: JudgeContext): Verdict | Promise<Verdict>;
}

const RANK: Record<Verdict['outcome'], number> = { error: 0, resisted: 1, partial: 2, vulnerable: 3 };

/** The stronger of two verdicts: worse outcome for the target first, then higher confidence. */
export function strongest(a: Verdict, b: Verdict): Verdict {
  if (RANK[a.outcome] !== RANK[b.outcome]) return RANK[a.outcome] > RANK[b.outcome] ? a : b;
  return b.confidence > a.confidence ? b : a;
}
