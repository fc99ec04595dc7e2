import { Command } from 'commander';
import { CliError, CliIo, EXIT } from '../io';
import { targetFromFlags, targetSpec, ScanFlags } from '../scan/scan-plan';
import { expectOk, serviceFrom } from '../server/client';
import { cell, day, printRows } from '../server/output';
import { CommandContext, runCommand, targetOptions } from './command';

interface ServerFlags {
  url?: string;
  apiKey?: string;
  json?: boolean;
}

/** every page of a list, up to `max` items */
export async function listAll(io: CliIo, flags: ServerFlags, path: string, key: string, max = 1000): Promise<any[]> {
  const service = serviceFrom(flags, io.env);
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: any = await expectOk(io, service, 'GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...(page[key] ?? []));
    cursor = page.next_cursor ?? null;
  } while (cursor && items.length < max);
  return items.slice(0, max);
}

/** the options every server command takes */
export function serverOptions(command: Command): Command {
  return command
    .option('--url <base>', 'the Gauntlet service (env GAUNTLET_URL, default http://localhost:3000)')
    .option('--api-key <key>', 'an API key (prefer env GAUNTLET_API_KEY: arguments show in process lists)')
    .option('--json', 'print the service\'s JSON answer, for scripts');
}

function printCheck(io: CliIo, check: any): number {
  io.stdout(`${check.ok ? 'ok' : 'NOT OK'}: ${check.diagnosis}`);
  io.stdout(`endpoint: ${check.endpoint}${check.status ? ` (HTTP ${check.status})` : ''}, ${check.latency_ms} ms`);
  if (check.hint) io.stdout(`hint: ${check.hint}`);
  return check.ok ? EXIT.passed : EXIT.belowThreshold;
}

export function registerTargets(program: Command, ctx: CommandContext): void {
  const { io } = ctx;
  const targets = program.command('targets').summary('list, add and check the targets of a Gauntlet service').description('Targets of a Gauntlet service (GAUNTLET_URL, GAUNTLET_API_KEY).');

  serverOptions(targets.command('list').description('the account\'s targets, newest first'))
    .option('--tag <tag>', 'only targets with this tag')
    .action((flags: ServerFlags & { tag?: string }) =>
      runCommand(ctx, async () => {
        const list = await listAll(io, flags, `/api/targets${flags.tag ? `?tag=${encodeURIComponent(flags.tag)}` : ''}`, 'targets');
        printRows(io, !!flags.json, { targets: list }, ['id', 'name', 'mode', 'format', 'url', 'created'],
          list.map((t) => [t.id, t.name, t.scan_mode, cell(t.api_format), t.url, day(t.created_at)]), 'no targets yet: gauntlet targets add URL --name NAME');
        return EXIT.passed;
      }),
    );

  targetOptions(serverOptions(targets.command('add').description('register a target (the same options as gauntlet scan)').argument('<target-url>', 'the API base URL or endpoint; with --browser, the chat page')))
    .option('--name <name>', 'the target\'s name (default: the url)')
    .option('--check', 'send one harmless message and say whether the target answers as expected')
    .action((url: string, flags: ServerFlags & ScanFlags & { check?: boolean }) =>
      runCommand(ctx, async () => {
        const service = serviceFrom(flags, io.env);
        const body = { ...targetSpec(targetFromFlags(url, flags, io.env)), ...(flags.check && { check: true }) };
        const created = await expectOk(io, service, 'POST', '/api/targets', body);
        if (flags.json) {
          io.stdout(JSON.stringify(created, null, 2));
          return created.check && !created.check.ok ? EXIT.belowThreshold : EXIT.passed;
        }
        io.stdout(`target ${created.id} registered: ${created.name} (${created.url})`);
        return created.check ? printCheck(io, created.check) : EXIT.passed;
      }),
    );

  serverOptions(targets.command('check').description('send one harmless message; exit 0 when the target answers as expected, 1 when not').argument('<id>', 'target id'))
    .action((id: string, flags: ServerFlags) =>
      runCommand(ctx, async () => {
        if (!/^[0-9a-f-]{36}$/i.test(id)) throw new CliError(`not a target id: ${id}`);
        const check = await expectOk(io, serviceFrom(flags, io.env), 'POST', `/api/targets/${id}/check`);
        if (flags.json) {
          io.stdout(JSON.stringify(check, null, 2));
          return check.ok ? EXIT.passed : EXIT.belowThreshold;
        }
        return printCheck(io, check);
      }),
    );
}
