import { Command } from 'commander';
import { resolve } from 'node:path';
import { judgeFromEnv, JudgedTranscript, readTranscriptLine, TRANSCRIPT_LIMITS, TranscriptJudge, TranscriptLineError } from '@gauntlet/scanner';
import { CliError, EXIT } from '../io';
import { boundedLines } from '../judge/lines';
import { CommandContext, runCommand } from './command';

/** Most conversations one run judges, and characters it reads in all: the judge holds every finding until the end (recurrence). */
export const JUDGE_INPUT_LIMITS = { conversations: 10_000, totalChars: 256 * 1024 * 1024 } as const;

type Outcome = { n: number; id?: string; error: string } | { n: number; judged: number };

/**
 * `gauntlet judge FILE|-`: conversations from anywhere (JSON Lines in the API's turn shape), judged
 * by the scan's judge as one body of evidence. One JSON line out per conversation, in input order:
 * `{id, findings: [{category, severity, title, proof}]}`, or `{id, line, error}` for a line that
 * could not be judged (also said on stderr, naming its line; the others are judged all the same).
 * A summary on stderr. Exits 0 when nothing was found, 1 when something was, 2 when a line or the
 * input could not be read.
 */
export function registerJudge(program: Command, ctx: CommandContext): void {
  program
    .command('judge <file>')
    .summary("judge conversations from a file (JSON Lines; - for standard input) with the scan's judge")
    .description(
      "Judges conversations that came from anywhere with the scan's judge: each line {id, turns: [{role: user|assistant|tool, content, tool_calls?, tool_call_id?, name?}], target?: {canaries?, sensitive?: [{label, value}], tools?}, probe?}. " +
        'The file is one body of evidence: a value shaped like a credential or personal data counts once it comes back in conversations that asked different things. ' +
        'Prints one JSON line per conversation, in order: {id, findings: [{category, severity, title, proof}]}. JUDGE_URL and JUDGE_MODEL add a model\'s second opinion where the rules are unsure.',
    )
    .addHelpText('after', '\nExit codes: 0 nothing found, 1 findings, 2 a line or the input could not be read (the other lines are judged and printed all the same).')
    .action((file: string) =>
      runCommand(ctx, async () => {
        const { io } = ctx;
        const judge = new TranscriptJudge({ secondOpinion: judgeFromEnv(io.env) });
        const outcomes: Outcome[] = [];
        let chars = 0;
        let stopped: string | null = null;
        try {
          for await (const line of boundedLines(io.readStream(file === '-' ? '-' : resolve(io.cwd, file)), TRANSCRIPT_LIMITS.lineChars)) {
            if ('tooLong' in line) {
              outcomes.push({ n: line.n, error: `the line is longer than ${TRANSCRIPT_LIMITS.lineChars} characters` });
              continue;
            }
            if (!line.text.trim()) continue;
            chars += line.text.length;
            if (judge.size >= JUDGE_INPUT_LIMITS.conversations || chars > JUDGE_INPUT_LIMITS.totalChars) {
              stopped = `line ${line.n}: more than ${JUDGE_INPUT_LIMITS.conversations} conversations or ${JUDGE_INPUT_LIMITS.totalChars / 1024 / 1024} MiB in one run; the rest was not judged (split the file)`;
              break;
            }
            try {
              const conversation = readTranscriptLine(line.text);
              await judge.judge(conversation);
              outcomes.push({ n: line.n, judged: judge.size - 1 });
            } catch (e) {
              if (!(e instanceof TranscriptLineError)) throw e;
              outcomes.push({ n: line.n, ...(e.id !== undefined && { id: e.id }), error: e.message });
            }
          }
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') throw new CliError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : 'permission denied'}`);
          throw e;
        }
        return report(io, judge.results(), outcomes, stopped);
      }),
    );
}

/** The lines out in input order, the bad lines and the summary on stderr, and the exit code. */
function report(io: CommandContext['io'], results: JudgedTranscript[], outcomes: Outcome[], stopped: string | null): number {
  const bySeverity = new Map<string, number>();
  const byCategory = new Map<string, number>();
  let withFindings = 0;
  for (const o of outcomes) {
    if ('error' in o) {
      io.stdout(JSON.stringify({ ...(o.id !== undefined && { id: o.id }), line: o.n, error: o.error }));
      io.stderr(`gauntlet: line ${o.n}${o.id !== undefined ? ` (${o.id})` : ''}: ${o.error}`);
      continue;
    }
    const { id, findings } = results[o.judged];
    io.stdout(JSON.stringify({ id, findings: findings.map(({ category, severity, title, proof }) => ({ category, severity, title, proof })) }));
    if (findings.length) withFindings++;
    for (const f of findings) {
      byCategory.set(f.category, (byCategory.get(f.category) ?? 0) + 1);
      bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
    }
  }
  if (stopped) io.stderr(`gauntlet: ${stopped}`);
  const bad = outcomes.filter((o) => 'error' in o).length;
  const counts = (m: Map<string, number>, order?: string[]) =>
    [...m].sort(([a], [b]) => (order ? order.indexOf(a) - order.indexOf(b) : a.localeCompare(b))).map(([k, n]) => `${k.replace(':2025', '')} ${n}`).join(', ');
  const found = withFindings ? `, ${withFindings} with findings (${counts(byCategory)}; ${counts(bySeverity, ['critical', 'high', 'medium', 'low'])})` : ', nothing found';
  io.stderr(`gauntlet judge: ${results.length} conversation${results.length === 1 ? '' : 's'} judged${found}${bad ? `; ${bad} line${bad === 1 ? '' : 's'} could not be judged` : ''}`);
  if (bad || stopped) return EXIT.error;
  return withFindings ? EXIT.belowThreshold : EXIT.passed;
}
