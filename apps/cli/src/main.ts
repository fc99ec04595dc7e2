import { Command, CommanderError } from 'commander';
import { registerCi } from './commands/ci';
import { CommandContext, RegisterCommand } from './commands/command';
import { registerDeploy } from './commands/deploy';
import { registerScan } from './commands/scan';
import { registerScans } from './commands/scans';
import { registerSchedules } from './commands/schedules';
import { registerServe } from './commands/serve';
import { registerForget } from './commands/forget';
import { registerJudge } from './commands/judge';
import { registerTargets } from './commands/targets';
import { CliIo, CLI_VERSION, defaultIo, EXIT, oneLine } from './io';

export { CLI_VERSION, EXIT } from './io';
export type { CliIo } from './io';

/** Every command, one file each under commands/, registered on one program. */
const COMMANDS: RegisterCommand[] = [
  registerScan, registerCi, registerTargets, registerScans,
  (program, { io, exit }) => void registerSchedules(program, io, exit),
  registerDeploy, registerServe, registerForget, registerJudge,
];

/** The program: commander parses, each command's action sets the exit code. */
export function buildProgram(ctx: CommandContext): Command {
  const { io } = ctx;
  const program = new Command('gauntlet')
    .version(CLI_VERSION)
    .description(
      'Gauntlet attacks AI targets (model APIs and chat pages) the way an adversary would, scores them and writes reports.\n' +
        '`gauntlet scan URL` runs a whole scan here, no server needed; `gauntlet judge FILE` judges conversations from anywhere with the same judge; `gauntlet serve` shows its scans in the dashboard; `gauntlet ci`, `targets`, `scans`, `schedules` and `deploy` talk to a Gauntlet service.',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout(s.replace(/\n$/, '')),
      writeErr: (s) => io.stderr(s.replace(/\n$/, '')),
    })
    .showHelpAfterError('(gauntlet --help lists the commands; gauntlet <command> --help their options)')
    .addHelpText('after', '\nExit codes: 0 passed, 1 the gate failed (score below the threshold, new or high findings), 2 error.');
  for (const register of COMMANDS) register(program, ctx);
  return program;
}

export async function main(argv: string[], overrides: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = { ...defaultIo, ...overrides };
  let code: number = EXIT.passed;
  const program = buildProgram({ io, exit: (c) => (code = c) });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    // help and --version end with code 0; every parse error is an error
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.passed : EXIT.error;
    // the top-level handler: whatever escaped a command is one line too, never a stack trace
    io.stderr(`gauntlet: error: ${oneLine(e)}`);
    return EXIT.error;
  }
  return code;
}

/** the process's last resort (a failure outside any command's promise): one line and exit 2 */
export function exitOnStrayFailure(write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): void {
  const last = (e: unknown) => {
    write(`gauntlet: error: ${oneLine(e)}`);
    process.exit(EXIT.error);
  };
  process.on('uncaughtException', last);
  process.on('unhandledRejection', last);
}

if (require.main === module) {
  exitOnStrayFailure();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
