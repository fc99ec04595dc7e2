import { Command } from 'commander';
import { resolve } from 'node:path';
import { defaultDataDir } from '../scan/data-dir';
import { CommandContext, runCommand, wholeNumber } from './command';

interface ServeFlags {
  dataDir?: string;
  host?: string;
  port?: string;
  private?: boolean;
}

/** `gauntlet serve`: the dashboard and API over the data folder `gauntlet scan` keeps its scans in, until Ctrl-C. */
export function registerServe(program: Command, ctx: CommandContext): void {
  program
    .command('serve')
    .description(
      'Serves the dashboard and API over the scans `gauntlet scan` kept (the same data folder), on this machine only unless --host says otherwise.\n' +
        'Sign in with the local account the CLI made (its password is in the data folder). Ctrl-C stops.',
    )
    .option('--data-dir <dir>', 'the data folder to serve (default: $GAUNTLET_DATA_DIR, else the per-user data folder)')
    .option('--host <address>', 'the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)')
    .option('--port <n>', 'the port to listen on (default 3000)')
    .option('--no-private', 'scans started from the dashboard may not reach loopback or private addresses')
    .action((flags: ServeFlags) => runCommand(ctx, () => serve(flags, ctx)));
}

async function serve(flags: ServeFlags, { io }: CommandContext): Promise<number> {
  // the service loads only when it serves: --help and argument errors stay instant
  const { serveLocal, SERVE_DEFAULTS } = await import('../scan/local-service');
  const port = flags.port === undefined ? SERVE_DEFAULTS.port : wholeNumber('--port', flags.port, 0, 65535);
  const host = flags.host ?? SERVE_DEFAULTS.host;
  const dataDir = resolve(io.cwd, flags.dataDir ?? defaultDataDir(io.env));
  const served = await serveLocal({ dataDir, allowPrivate: flags.private !== false, env: io.env, host, port });
  io.stdout(`gauntlet: serving ${dataDir} at ${served.url}/ (dashboard; API at ${served.url}/api/docs)`);
  io.stdout(`gauntlet: sign in as ${served.account.email}, password in ${served.accountFile}; Ctrl-C stops`);
  await new Promise<void>((done) => {
    const remove = io.onInterrupt(() => {
      remove();
      done();
    });
  });
  await served.close();
  return 0;
}
