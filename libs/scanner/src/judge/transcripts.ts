import { createHash } from 'node:crypto';
import { OwaspCategoryId, Proof, Severity, Turn } from '@gauntlet/domain';
import { Detector, JudgeContext } from '../detectors/detector';
import { heldValuesOf, RecurrenceLedger } from '../detectors/disclosure';
import { Readings } from '../detectors/readings';
import { fold } from '../detectors/text';
import { boundTurn } from '../engine/attempts';
import { FindingBook } from '../engine/findings';
import { verdictPolicy } from '../engine/verdict-policy';
import { probeById } from '../probes/catalogue';
import { canaryAskedIn } from '../probes/canary';
import { Probe } from '../probes/probe';
import { heldCandidatesOf, Judge } from '../engine/judge';
import { TranscriptLine } from './transcript-line';
import { callsMade, TRANSCRIPT_READINGS } from './transcript-probes';

/** A finding of one conversation, as `gauntlet judge` prints it. */
export interface TranscriptFinding {
  category: OwaspCategoryId;
  severity: Severity;
  title: string;
  proof: Proof | null;
  /** the rule that proved it (the scorecard counts by it; not printed) */
  detector: string;
}

export interface JudgedTranscript {
  id: string;
  findings: TranscriptFinding[];
}

export interface TranscriptJudgeOptions {
  /** a model's second opinion where the rules are unsure (JUDGE_URL), as scans have it */
  secondOpinion?: Detector;
  /** characters kept of each turn of a finding's evidence */
  maxRecordedChars?: number;
}

/**
 * Conversations that came from outside a scan (a file of transcripts), judged by the scan's judge
 * as one body of evidence: each is one independent conversation, as a scan's attempt is, so a
 * value shaped like a credential or personal data that comes back in conversations that asked
 * different things is held, and one seen once was made up. Each conversation's findings are its
 * own (a book per conversation, one recurrence ledger for all), read once every conversation is in.
 */
export class TranscriptJudge {
  private readonly ledger = new RecurrenceLedger();
  private readonly judged: { id: string; book: FindingBook }[] = [];
  private readonly withSecondOpinion;
  private readonly rulesOnly = verdictPolicy();
  private readonly maxRecordedChars: number;

  constructor(options: TranscriptJudgeOptions = {}) {
    this.withSecondOpinion = verdictPolicy(options.secondOpinion);
    this.maxRecordedChars = options.maxRecordedChars ?? 2_000;
  }

  get size(): number {
    return this.judged.length;
  }

  async judge(line: TranscriptLine): Promise<void> {
    const book = new FindingBook(this.maxRecordedChars, heldValuesOf(line.target.canaries, line.target.sensitive), this.ledger);
    // one conversation, whatever its id says: ids may repeat in a file
    const id = `${this.judged.length}:${line.id}`;
    const recorded = line.turns.map((t) => boundTurn(t, this.maxRecordedChars));
    const readings = new Readings();
    const probe = line.probe ? probeById(line.probe) : undefined;
    if (probe) {
      // an attempt of a catalogue probe: judged as a scan judges it, by that probe's rules
      await new Judge(this.withSecondOpinion, book).judge({ id, probe, transcript: line.turns, recorded, context: contextOf(line, probe, readings, true) });
    } else {
      const question = questionOf(line.turns);
      const candidates = heldCandidatesOf(line.turns, { readings });
      for (const reading of TRANSCRIPT_READINGS) {
        if (reading.applies && !reading.applies(line.turns, line.target.tools)) continue;
        // one probe per question: recited wording recurs across conversations that asked different things
        const as: Probe = { ...reading.probe, id: `${reading.probe.id}:${question}` };
        const judge = new Judge(reading.held ? this.rulesOnly : this.withSecondOpinion, book);
        await judge.judge({ id, probe: as, transcript: line.turns, recorded, context: contextOf(line, as, readings, reading.held), question, candidates: reading.candidates ? candidates : [] });
      }
    }
    this.judged.push({ id: line.id, book });
  }

  /** Every conversation's findings, in the order they were judged: read once all are in (a value may recur in a later one). */
  results(): JudgedTranscript[] {
    return this.judged.map(({ id, book }) => ({
      id,
      findings: book
        .vulnerabilities('judge')
        .map((v) => ({ category: v.category, severity: v.severity, title: v.title, proof: v.evidence.proof ?? null, detector: v.evidence.detector }))
        .sort((a, b) => a.category.localeCompare(b.category)),
    }));
  }
}

/** What a conversation asked, for recurrence: its user turns, folded (conversations that asked the same count once). */
function questionOf(turns: readonly Turn[]): string {
  const asked = fold(turns.filter((t) => t.role === 'user').map((t) => t.content).join('\n')).replace(/\s+/g, ' ');
  return createHash('sha256').update(asked).digest('hex').slice(0, 12);
}

/**
 * What the rules know beyond the conversation: what the target holds (for the reading told it),
 * the token the probe's prompt asked for, and, when tools were called, the tools offered; no token
 * of an attack is known outside its scan, so calls prove steering by the values they carry.
 */
function contextOf(line: TranscriptLine, probe: Probe, readings: Readings, held: boolean): JudgeContext {
  const prompts = line.turns.filter((t) => t.role === 'user').map((t) => t.content).join('\n');
  // an agent: it was offered tools, or it called some
  const acts = line.target.tools.length > 0 || callsMade(line.turns);
  return {
    readings, canary: probe.detectors.includes('canary') ? canaryAskedIn(prompts) : null, entity: null,
    targetCanaries: held ? line.target.canaries : [], sensitive: held ? line.target.sensitive : [],
    // a transcript reading looks only for what a tool's result steered; a catalogue probe is indirect when it planted one
    ...(acts && { agent: { tools: line.target.tools, token: null, indirect: probe.technique === 'transcript' || Boolean(probe.agent?.poison) } }),
  };
}
