import type { Command } from 'commander';
import { CliError, CliIo, EXIT } from '../io';

/** What every command module receives: the io it may touch, and where its exit code goes. */
export interface CommandContext {
  io: CliIo;
  exit(code: number): void;
}

/** One file per command under commands/, each registering itself on the one program. */
export type RegisterCommand = (program: Command, ctx: CommandContext) => void;

/** Runs a command body: a CliError is one line and exit 2; anything else is a bug, printed with its stack. */
export async function runCommand(ctx: CommandContext, body: () => Promise<number>): Promise<void> {
  try {
    ctx.exit(await body());
  } catch (e) {
    ctx.io.stderr(`gauntlet: error: ${e instanceof CliError ? e.message : (e as Error)?.stack ?? String(e)}`);
    ctx.exit(EXIT.error);
  }
}

/** commander collects a repeatable option through this */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** a whole number within bounds, or the message naming the option */
export function wholeNumber(option: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) throw new CliError(`${option} must be an integer from ${min} to ${max}`);
  return Number(text);
}
