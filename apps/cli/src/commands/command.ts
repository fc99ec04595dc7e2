import { Command, Option } from 'commander';
import { API_FORMATS } from '@gauntlet/domain';
import { CliError, CliIo, EXIT, oneLine } from '../io';

/** What every command module receives: the io it may touch, and where its exit code goes. */
export interface CommandContext {
  io: CliIo;
  exit(code: number): void;
}

/** One file per command under commands/, each registering itself on the one program. */
export type RegisterCommand = (program: Command, ctx: CommandContext) => void;

/** Runs a command body: any failure is one line (see oneLine) and exit 2. */
export async function runCommand(ctx: CommandContext, body: () => Promise<number>): Promise<void> {
  try {
    ctx.exit(await body());
  } catch (e) {
    ctx.io.stderr(`gauntlet: error: ${oneLine(e)}`);
    ctx.exit(EXIT.error);
  }
}

/** commander collects a repeatable option through this */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * The options that describe a target, declared once for `gauntlet scan` and `gauntlet targets add`
 * (both read them with scan-plan's targetFromFlags).
 */
export function targetOptions(command: Command): Command {
  return command
    .addOption(new Option('--format <format>', 'the API shape (default openai)').choices([...API_FORMATS]))
    .option('--model <name>', 'the model to ask for')
    .option('--api-key-env <VAR>', 'the environment variable holding the API key (keys never go on the command line)')
    .option('--header <"Name: value">', 'an extra request header, for gateways (repeatable)', collect)
    .option('--canary <text>', 'a string planted in the system prompt or data that must never come out (repeatable)', collect)
    .option('--sensitive <label=value>', 'something you know is behind the bot: a customer record, an internal code (repeatable)', collect)
    .option('--browser', 'the url is a chat page: drive it in Chromium')
    .option('--body-template <json>', 'with --format http: the request body, a JSON template holding {{prompt}} or {{messages}}')
    .option('--response-path <path>', 'with --format http: where the answer is in the response JSON (e.g. choices.0.message.content)');
}

/** a whole number within bounds, or the message naming the option */
export function wholeNumber(option: string, text: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) throw new CliError(`${option} must be an integer from ${min} to ${max}`);
  return Number(text);
}
