import { Controller, Get, Inject, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { buildScanReport, toAuditNdjson, TriagedVulnerability } from '@gauntlet/assessment';
import { cancelledBy, gradeLabel, isTerminal, requireReportFormat, ScanScore } from '@gauntlet/domain';
import type { ScanDoc } from '@gauntlet/read-models';
import { renderReport } from '@gauntlet/reports';
import { CurrentPrincipal, Principal } from '../http/principal';
import { ProblemException } from '../http/problem';
import type { Config } from '../config/config';
import { Clock } from '../platform/clock';
import { CONFIG } from '../platform/tokens';
import { ScanHistory } from '../scans/scan-history';
import { ScanReader } from '../scans/scan-reader';
import { NamedScanDoc, partiality } from '../scans/scan-view';
import { TargetReader } from '../targets/target-reader';
import { CategoryScoreView, ComplianceEvidenceView, ReportQuery, ScoreView } from './dto';
import { ReportDownloads } from './report-downloads';

/**
 * What a finished scan yields. The score is the one recorded when the scan ended; compliance
 * evidence and reports are built from the scan's events alone, so they can be produced again
 * for any past scan and always agree with its history.
 */
@ApiTags('results')
@ApiBearerAuth() @ApiSecurity('api_key')
@ApiExtraModels(CategoryScoreView)
@Controller('api/scans/:id')
export class ResultsController {
  constructor(
    private readonly reader: ScanReader,
    private readonly scanHistory: ScanHistory,
    private readonly targets: TargetReader,
    private readonly downloads: ReportDownloads,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  private async finished(p: Principal, id: string, what: string): Promise<NamedScanDoc> {
    const scan = await this.reader.ownedNamed(p.account_id, id);
    if (!isTerminal(scan.status)) throw new ProblemException(409, `The scan is ${scan.status}; its ${what} is available when it has ended.`, { extensions: { scan_status: scan.status } });
    return scan;
  }

  private async report(scan: ScanDoc) {
    const canceller = cancelledBy(scan);
    const [target, history, triage, base, actors] = await Promise.all([
      this.targets.get(scan.target_id),
      this.scanHistory.bothWays(scan._id),
      this.reader.triageDecisions(scan.target_id),
      this.reader.reportBase(scan),
      this.reader.actors(canceller ? [canceller] : []),
    ]);
    return buildScanReport(history.events, {
      recorded: history.recorded,
      target: target ? { id: target._id, name: target.name, url: target.url, scan_mode: target.scan_mode } : undefined,
      baseUrl: this.config.publicBaseUrl,
      generatedAt: this.clock.iso(),
      triage,
      base,
      actors,
    });
  }

  /** the recorded score and the score after triage, side by side; the history is read only when triage set something aside */
  private async withTriage(scan: ScanDoc, score: ScanScore, now: string) {
    const findings: TriagedVulnerability[] = await this.reader.triagedFindings(scan, now);
    const after = await this.reader.scoreAfterTriage({ ...scan, score }, findings);
    const away = findings.filter((v) => v.triage && v.triage.state !== 'open').length;
    return { ...score, after_triage: { ...after, findings_triaged_away: away, as_of: now } };
  }

  @Get('score')
  @ApiOperation({ summary: 'Security score and grade as recorded when the scan ended ("as scanned"), and after_triage beside it' })
  @ApiOkResponse({ type: ScoreView })
  @ApiConflictResponse({ description: 'the scan has not ended, or ended without a score (failed, cancelled)' })
  async score(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<ScoreView> {
    const scan = await this.finished(p, id, 'score');
    if (!scan.score) throw new ProblemException(409, `The scan ended ${scan.status} without a score${scan.reason ? `: ${scan.reason}` : ''}.`, { extensions: { scan_status: scan.status } });
    const { partial, coverage } = partiality(scan);
    return { ...(await this.withTriage(scan, scan.score, this.clock.iso())), partial, coverage, grade_label: gradeLabel(scan.score.grade, { partial, coverage }) };
  }

  @Get('compliance-evidence')
  @ApiOperation({ summary: 'OWASP LLM Top 10, NIST AI RMF and SOC 2 CC7 evidence, with the SHA-256 chain over the scan history' })
  @ApiOkResponse({ type: ComplianceEvidenceView, description: 'see docs/compliance.md' })
  @ApiConflictResponse({ description: 'the scan has not ended' })
  async compliance(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string) {
    const scan = await this.finished(p, id, 'compliance evidence');
    return (await this.report(scan)).compliance;
  }

  @Get('events')
  @ApiOperation({ summary: 'The scan history as NDJSON, one event a line with its chain link, for replay and verification' })
  @ApiOkResponse({
    description: 'one JSON event a line, as an attachment',
    content: { 'application/x-ndjson': { schema: { type: 'string' } } },
    headers: { 'Content-Disposition': { description: 'attachment; filename="scan-<id>-events.ndjson"', schema: { type: 'string' } } },
  })
  async events(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Res() reply: FastifyReply) {
    await this.reader.owned(p.account_id, id);
    const ndjson = toAuditNdjson(await this.scanHistory.recorded(id));
    return reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('content-disposition', `attachment; filename="scan-${id}-events.ndjson"`).send(ndjson);
  }

  @Get('report')
  @ApiOperation({ summary: 'The report in pdf, json, csv, markdown or html (free plan: json only; 30 downloads per hour)' })
  @ApiOkResponse({
    description: 'the report, as an attachment, in the content type of the requested format',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { type: 'object', description: 'the report model: scan, target, score, vulnerabilities, compliance' } },
      'text/csv': { schema: { type: 'string' } },
      'text/markdown': { schema: { type: 'string' } },
      'text/html': { schema: { type: 'string' } },
    },
    headers: {
      'Content-Disposition': { description: 'attachment; filename="gauntlet-scan-<id>.<ext>"', schema: { type: 'string' } },
      'X-RateLimit-Remaining-Reports': { description: 'downloads left in this hour', schema: { type: 'integer' } },
    },
  })
  @ApiResponse({ status: 403, description: 'format not in the plan' })
  @ApiConflictResponse({ description: 'the scan has not ended' })
  @ApiResponse({ status: 429, description: 'report download limit reached (Retry-After)' })
  async download(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: ReportQuery, @Res() reply: FastifyReply) {
    requireReportFormat(p.plan, q.format);
    const scan = await this.finished(p, id, 'report');
    // only a download that happens spends the budget: claimed now, given back if it fails
    const slot = await this.downloads.claim(p.account_id, reply);
    let rendered;
    try {
      rendered = await renderReport(q.format, await this.report(scan));
    } catch (err) {
      await slot.giveBack().catch(() => undefined);
      throw err;
    }
    return reply
      .header('content-type', rendered.contentType)
      .header('content-disposition', `attachment; filename="${rendered.filename}"`)
      .header('cache-control', 'private, no-store')
      .send(rendered.body);
  }
}
