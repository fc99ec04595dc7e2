import { ProvenWeakness, Turn, Verdict } from '@gauntlet/domain';
import { candidatesOf } from '../detectors/candidates';
import { JudgeContext } from '../detectors/judge-context';
import { FindingBook, SeenCandidate } from './findings';
import { JudgeAttempt } from './verdict-policy';
import { Probe } from '../probes/probe';

/** One conversation to judge, as whoever had it knows it (a scan's attempt, a line of a transcript file). */
export interface JudgedConversation {
  /** the conversation, one of the body's independent ones: its values recur only across different ids */
  id: string;
  /** what it was an attack of: its category, its rules */
  probe: Probe;
  /** what was said and done, whole: what is judged */
  transcript: readonly Turn[];
  /** the turns as a finding keeps them (bounded); the transcript when absent */
  recorded?: Turn[];
  context: JudgeContext;
  technique?: string;
  converters?: string[];
  phase?: 'probe' | 'amplify';
  foundAt?: Date;
  /**
   * what was asked, for recurrence: a value counts as held once it comes back in conversations
   * that asked different things (default: the probe's id, as in a scan)
   */
  question?: string;
  /** its values shaped like personal data or credentials, when read already (else read here) */
  candidates?: SeenCandidate[];
}

/** What a conversation proved: its verdict, its candidates for held values, and the weaknesses it proved first. */
export interface Judgement {
  verdict: Verdict;
  candidates: SeenCandidate[];
  proved: ProvenWeakness[];
}

/**
 * What a conversation's answers hold that is shaped like personal data or a credential: held only
 * if it recurs, and never what a tool's result told the agent (our own or the user's tools).
 */
export function heldCandidatesOf(transcript: readonly Turn[], context: Pick<JudgeContext, 'plainTurns' | 'readings'>): SeenCandidate[] {
  const told = transcript.filter((t) => t.role === 'tool').map((t) => t.content).join('\n');
  return candidatesOf(transcript, context).filter((cand) => !told || !told.includes(cand.value));
}

/**
 * The judge: what one conversation proves, in the body of evidence it belongs to. The rules (and a
 * model's second opinion, when one is configured: the verdict policy) give the verdict; what the
 * answers hold that is shaped like personal data or a credential is seen by the book's recurrence
 * ledger; and the book files what is proven, once, where it belongs. A scan's attempts, the lines
 * of a transcript file (`gauntlet judge`) and a monitored agent's sessions are judged alike.
 */
export class Judge {
  constructor(private readonly judgeAttempt: JudgeAttempt, readonly book: FindingBook) {}

  async judge(c: JudgedConversation): Promise<Judgement> {
    const { probe, transcript, context } = c;
    const verdict = await this.judgeAttempt(probe, [...transcript], context);
    const candidates = c.candidates ?? heldCandidatesOf(transcript, context);
    const proved = this.book.observe(c.question ?? probe.id, c.id, candidates);
    // every answer that showed something, or holds a value that may turn out held (whatever the
    // probe asked and its rules made of it): no answer that gave a held value away is left out
    if (verdict.outcome === 'vulnerable' || verdict.outcome === 'partial' || candidates.length > 0) {
      proved.push(
        ...this.book.add({
          probe, technique: c.technique ?? probe.technique, converters: c.converters ?? [], phase: c.phase ?? 'probe', verdict,
          turns: c.recorded ?? [...transcript], foundAt: c.foundAt ?? new Date(0), attemptId: c.id, candidates,
        }),
      );
    }
    return { verdict, candidates, proved };
  }
}
