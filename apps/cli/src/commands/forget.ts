import { Command } from 'commander';
import { resolve } from 'node:path';
import { defaultDataDir } from '../scan/data-dir';
import { CommandContext, runCommand } from './command';

/** `gauntlet forget <target>`: a target `gauntlet scan` registered leaves the data folder's targets and fleet. */
export function registerForget(program: Command, ctx: CommandContext): void {
  program
    .command('forget <target>')
    .description('Forgets a target `gauntlet scan` registered in the data folder (by name or id): it leaves the target list and the fleet; its scans stay in the history.')
    .option('--data-dir <dir>', 'the data folder (default: $GAUNTLET_DATA_DIR, else the per-user data folder)')
    .action((target: string, flags: { dataDir?: string }) =>
      runCommand(ctx, async () => {
        const { io } = ctx;
        const { LocalService } = await import('../scan/local-service');
        const service = await LocalService.open({ dataDir: resolve(io.cwd, flags.dataDir ?? defaultDataDir(io.env)), allowPrivate: true, env: io.env });
        try {
          const forgotten = await service.forgetTarget(target);
          io.stdout(`gauntlet: forgot target ${forgotten.name} (${forgotten.url}, id ${forgotten._id}); its scans stay in the history`);
          return 0;
        } finally {
          await service.close();
        }
      }),
    );
}
