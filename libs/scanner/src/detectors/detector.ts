import { ProbeAttempt, Turn } from '@gauntlet/domain';
import { JudgeContext } from './judge-context';
import { DetectorName } from './rules';

// the rules read the context without the port; nothing here reaches probes/ (a probe names its rules)
export type { JudgeContext } from './judge-context';

export type Verdict = ProbeAttempt['verdict'];

/** What a detector reads of the probe it judges (probes/probe.ts's Probe is one). */
export interface JudgedProbe {
  readonly category: string;
  readonly category_name: string;
  readonly technique: string;
  readonly description: string;
  readonly detectors: readonly DetectorName[];
}

/** The Detector port: decides what one conversation with the target proves. */
export interface Detector {
  readonly name: string;
  judge(probe: JudgedProbe, turns: readonly Turn[], context: JudgeContext): Verdict | Promise<Verdict>;
}

const RANK: Record<Verdict['outcome'], number> = { error: 0, resisted: 1, partial: 2, vulnerable: 3 };

/** The stronger of two verdicts: worse outcome for the target first, then higher confidence. */
export function strongest(a: Verdict, b: Verdict): Verdict {
  if (RANK[a.outcome] !== RANK[b.outcome]) return RANK[a.outcome] > RANK[b.outcome] ? a : b;
  return b.confidence > a.confidence ? b : a;
}
