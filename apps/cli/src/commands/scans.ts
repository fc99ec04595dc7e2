import { Command, Option } from 'commander';
import { SCAN_STATUSES } from '@gauntlet/domain';
import { REPORT_EXTENSIONS, REPORT_FORMATS, reportFormatByExtension } from '@gauntlet/reports';
import { resolve } from 'node:path';
import { CliError, CliIo, CLI_VERSION, EXIT } from '../io';
import { describe as describeAnswer, expectOk, serviceFrom } from '../server/client';
import { cell, day, printRows } from '../server/output';
import { table } from '../terminal/table';
import { CommandContext, runCommand } from './command';
import { listAll, serverOptions } from './targets';

interface ServerFlags {
  url?: string;
  apiKey?: string;
  json?: boolean;
}

const uuid = (id: string) => {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new CliError(`not a scan id: ${id}`);
  return id;
};

const counts = (c: Record<string, number> | undefined) => (c ? `${c.critical ?? 0}/${c.high ?? 0}/${c.medium ?? 0}/${c.low ?? 0}` : '-');

export async function downloadReport(io: CliIo, flags: ServerFlags, id: string, format: string): Promise<Uint8Array> {
  const service = serviceFrom(flags, io.env);
  let res: Response;
  try {
    res = await io.fetch(`${service.base}/api/scans/${id}/report?format=${format}`, {
      headers: { 'X-API-Key': service.apiKey, 'User-Agent': `gauntlet-cli/${CLI_VERSION}` }, redirect: 'error', signal: AbortSignal.timeout(120_000),
    });
  } catch (e) {
    throw new CliError(`cannot reach ${service.base}: ${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message}`);
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!res.ok) {
    let body: unknown = null;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      /* not JSON */
    }
    throw new CliError(`the report could not be downloaded (${describeAnswer({ status: res.status, body })})`);
  }
  return bytes;
}

export function registerScans(program: Command, ctx: CommandContext): void {
  const { io } = ctx;
  const scans = program.command('scans').summary('list, show, compare and download the scans of a Gauntlet service').description('Scans of a Gauntlet service (GAUNTLET_URL, GAUNTLET_API_KEY).');

  serverOptions(scans.command('list').description('scans, newest first'))
    .option('--target <id>', 'only the scans of this target')
    .addOption(new Option('--status <status>', 'only scans in this status').choices([...SCAN_STATUSES]))
    .option('--limit <n>', 'at most this many (default 50)', '50')
    .action((flags: ServerFlags & { target?: string; status?: string; limit: string }) =>
      runCommand(ctx, async () => {
        const limit = Number(flags.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit must be an integer from 1 to 10000');
        const query = [flags.target && `target_id=${encodeURIComponent(uuid(flags.target))}`, flags.status && `status=${flags.status}`].filter(Boolean).join('&');
        const list = await listAll(io, flags, `/api/scans${query ? `?${query}` : ''}`, 'scans', limit);
        printRows(io, !!flags.json, { scans: list }, ['id', 'target', 'status', 'profile', 'score', 'crit/high/med/low', 'created'],
          list.map((s) => [s.id, s.target_name, s.status, s.profile, cell(s.security_score), counts(s.severity_counts), day(s.created_at)]), 'no scans');
        return EXIT.passed;
      }),
    );

  serverOptions(scans.command('show').description('a scan: its status, score and findings').argument('<id>', 'scan id'))
    .action((id: string, flags: ServerFlags) =>
      runCommand(ctx, async () => {
        const service = serviceFrom(flags, io.env);
        const scan = await expectOk(io, service, 'GET', `/api/scans/${uuid(id)}`);
        if (flags.json) {
          io.stdout(JSON.stringify(scan, null, 2));
          return EXIT.passed;
        }
        const score = scan.security_score ?? scan.score?.overall_score;
        const grade = scan.security_grade ?? scan.score?.grade;
        io.stdout(`scan ${scan.id} of ${scan.target_name ?? scan.target_id}: ${scan.status}${scan.reason ? ` (${scan.reason})` : ''}, ${scan.profile} profile, ${day(scan.created_at)}`);
        if (score !== undefined && score !== null) io.stdout(`grade ${grade} (${score}/100)`);
        const vulns: any[] = scan.vulnerabilities ?? [];
        io.stdout(`${vulns.length} finding(s)`);
        if (vulns.length) for (const line of table(['severity', 'category', 'title', 'how it got through'], vulns.map((v) => [v.severity, v.category, v.title, v.how ?? v.technique ?? '']))) io.stdout(line);
        return EXIT.passed;
      }),
    );

  serverOptions(scans.command('diff').description('what changed since the previous finished scan of the same target').argument('<id>', 'scan id'))
    .action((id: string, flags: ServerFlags) =>
      runCommand(ctx, async () => {
        const service = serviceFrom(flags, io.env);
        const diff = await expectOk(io, service, 'GET', `/api/scans/${uuid(id)}/diff`);
        if (flags.json) {
          io.stdout(JSON.stringify(diff, null, 2));
          return EXIT.passed;
        }
        io.stdout(diff.base_scan_id ? `compared with scan ${diff.base_scan_id}` : 'the first finished scan of its target: everything is new');
        io.stdout(`new ${diff.new.length}, still open ${diff.still_open.length}, fixed ${diff.fixed.length}${diff.not_retested ? `, not retested ${diff.not_retested.length}` : ''}`);
        if (diff.new.length) {
          const scan = await expectOk(io, service, 'GET', `/api/scans/${id}`);
          const byId = new Map<string, any>((scan.vulnerabilities ?? []).map((v: any) => [v.id, v]));
          for (const line of table(['new', 'severity', 'category', 'title'], diff.new.map((v: string) => ['+', cell(byId.get(v)?.severity), cell(byId.get(v)?.category), cell(byId.get(v)?.title ?? v)]))) io.stdout(line);
        }
        return EXIT.passed;
      }),
    );

  serverOptions(scans.command('report').description('download the report of a finished scan').argument('<id>', 'scan id'))
    .requiredOption('-o, --output <file>', `where to write it; the format from the extension (${REPORT_EXTENSIONS.join(' ')}) unless --format`)
    .addOption(new Option('--format <format>', 'the report format').choices([...REPORT_FORMATS]))
    .action((id: string, flags: ServerFlags & { output: string; format?: string }) =>
      runCommand(ctx, async () => {
        const format = flags.format ?? reportFormatByExtension(flags.output.split('.').pop() ?? '');
        if (!format) throw new CliError(`--output ${flags.output}: the extension says which format to write (${REPORT_EXTENSIONS.join(' ')}), or pass --format`);
        const bytes = await downloadReport(io, flags, uuid(id), format);
        const path = resolve(io.cwd, flags.output);
        await io.writeFile(path, bytes);
        io.stdout(`report: ${path} (${format}, ${bytes.length} bytes)`);
        return EXIT.passed;
      }),
    );
}
