import { Command, Option } from 'commander';
import { CliError, EXIT } from '../io';
import { expectOk, serviceFrom } from '../server/client';
import { printRows } from '../server/output';
import { CommandContext, runCommand } from './command';
import { serverOptions } from './targets';

interface DeployFlags {
  url?: string;
  apiKey?: string;
  json?: boolean;
  target?: string;
  tag?: string;
  deployId?: string;
  environment?: string;
  release?: string;
}

/**
 * `gauntlet deploy --target ID | --tag T`: a pipeline's last step after it deployed. Every active
 * deploy schedule covering what was deployed fires once (POST /api/ci/deploy); --deploy-id makes a
 * retried step the same deploy. Exits 0 when the report was taken (even when no schedule covers
 * the target: nothing to scan is not a failed deploy), 2 on error.
 */
export function registerDeploy(program: Command, ctx: CommandContext): void {
  const { io } = ctx;
  serverOptions(
    program
      .command('deploy')
      .summary('report a deploy: the deploy schedules covering the target or tag scan it')
      .description('Report a deploy to a Gauntlet service (GAUNTLET_URL, GAUNTLET_API_KEY): every active schedule created with `gauntlet schedules create --on-deploy` that covers the target or tag fires once for it.'),
  )
    .addOption(new Option('--target <id>', 'the target that was deployed').conflicts('tag'))
    .addOption(new Option('--tag <tag>', 'every target carrying this tag was deployed').conflicts('target'))
    .option('--deploy-id <id>', 'the pipeline\'s id for this deploy (a run id, a commit): reporting it again fires nothing more')
    .option('--environment <name>', 'recorded with the firing, e.g. production')
    .option('--release <version>', 'the version deployed, recorded with the firing')
    .action((flags: DeployFlags) =>
      runCommand(ctx, async () => {
        if (!flags.target === !flags.tag) throw new CliError('give --target ID or --tag TAG');
        const service = serviceFrom(flags, io.env);
        const body = {
          ...(flags.target ? { target_id: flags.target } : { tag: flags.tag }),
          ...(flags.deployId && { deploy_id: flags.deployId }), ...(flags.environment && { environment: flags.environment }), ...(flags.release && { version: flags.release }),
        };
        const answer = await expectOk(io, service, 'POST', '/api/ci/deploy', body);
        const rows = [
          ...answer.scans.map((s: any) => [s.target_id, s.scan_id, 'scan requested', s.schedule_id]),
          ...answer.skipped.map((s: any) => [s.target_id, '-', `skipped: ${s.reason}`, s.schedule_id]),
          ...answer.not_started.map((s: any) => [s.target_id, s.scan_id, `not started: ${s.reason}`, s.schedule_id]),
        ];
        if (!flags.json) io.stdout(`deploy ${answer.deploy_id}`);
        printRows(io, !!flags.json, answer, ['target', 'scan', 'outcome', 'schedule'], rows, 'no active deploy schedule covers it: nothing to scan (gauntlet schedules create --on-deploy)');
        return EXIT.passed;
      }),
    );
}
