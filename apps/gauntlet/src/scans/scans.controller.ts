import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { budgetOf, RequestPlan } from '@gauntlet/domain';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Filter } from '@gauntlet/read-models';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { decodeCursor, page } from '../http/pagination';
import { CommandContext } from '../platform/write-path';
import { CancelScan } from './cancelling-scan/cancel-scan';
import { ScanPlanner } from './planning-scan/plan-scan';
import { CreatedScanView, DiffView, RequestPlanView, ListScansQuery, RequestScanBody, ScanDetailView, ScanList, ScanStatusView, ScanSummaryView, TriageBody, TriagedFindingView } from './dto';
import { RequestScan, RequestedScan } from './requesting-scan/request-scan';
import { ScanReader } from './scan-reader';
import { spendingView, statusView, summaryView } from './scan-view';
import { TriageFinding } from './triaging-finding/triage-finding';

@ApiTags('scans')
@ApiBearerAuth() @ApiSecurity('api_key')
@Controller('api/scans')
export class ScansController {
  constructor(private readonly commands: CommandBus, private readonly reader: ScanReader, private readonly planner: ScanPlanner) {}

  @Post()
  @ApiOperation({
    summary: 'Start a scan of a target (counts against the monthly quota of the plan), or with plan_only answer its plan without starting it',
    description: 'max_requests, max_tokens and max_cost hold exactly: a request that would cross one is never sent, and a scan that reaches one ends completed_partial with the reason "stopped at its budget" and what it did not finish (unfinished in its detail).',
  })
  @ApiCreatedResponse({ type: CreatedScanView, description: 'the scan, pending' })
  @ApiOkResponse({ type: RequestPlanView, description: 'plan_only: the plan; nothing was sent or started' })
  async request(@CurrentPrincipal() p: Principal, @Body() body: RequestScanBody, @Ctx() ctx: CommandContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<RequestedScan | RequestPlan> {
    const profile = body.profile ?? 'standard';
    const budget = budgetOf(body);
    if (body.plan_only) {
      const plan = await this.planner.plan(p.account_id, body.target_id, profile, budget);
      reply.status(200);
      return plan;
    }
    return this.commands.execute(new RequestScan({ account_id: p.account_id, plan: p.plan, target_id: body.target_id, profile, origin: 'api', fail_threshold: null, context: ctx, budget }));
  }

  @Get()
  @ApiOperation({ summary: 'List scans, newest first, optionally of one target or status' })
  @ApiOkResponse({ type: ScanList })
  async list(@CurrentPrincipal() p: Principal, @Query() q: ListScansQuery): Promise<ScanList> {
    const limit = q.limit ?? 50;
    const filter: Filter = { account_id: p.account_id };
    if (q.target_id) filter.target_id = q.target_id;
    if (q.status) filter.status = q.status;
    const docs = await this.reader.scans.find(filter, { sort: { field: 'created_at', direction: 'desc' }, limit: limit + 1, after: decodeCursor(q.cursor) });
    const { items, next_cursor } = page(docs, limit, 'created_at');
    return { scans: (await this.reader.named(items)).map(summaryView), next_cursor };
  }

  @Get(':id')
  @ApiOperation({ summary: 'The full scan with its vulnerabilities' })
  @ApiOkResponse({ type: ScanDetailView })
  async get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<ScanSummaryView & { vulnerabilities: unknown[]; proven_so_far: unknown[]; callback_hits: unknown }> {
    const doc = await this.reader.ownedNamed(p.account_id, id);
    return {
      ...summaryView(doc), vulnerabilities: await this.reader.triagedFindings(doc), proven_so_far: doc.proven ?? [], callback_hits: doc.callback_hits ?? { total: 0, after_scan: 0, late: [] },
      ...spendingView(doc),
    };
  }

  @Post(':id/vulnerabilities/:vulnerability_id/triage')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Triage a finding: open, false_positive, accepted_risk (optionally until expires_at) or fixed',
    description: 'Recorded as an event with who decided and why. It applies to the finding\'s fingerprint on the target, so later scans that find the same weakness show it too. The recorded score never changes; the score view, reports and CI show the score after triage beside it.',
  })
  @ApiOkResponse({ type: TriagedFindingView })
  async triage(
    @CurrentPrincipal() p: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Param('vulnerability_id') vulnerabilityId: string,
    @Body() body: TriageBody,
    @Ctx() ctx: CommandContext,
  ): Promise<TriagedFindingView> {
    return this.commands.execute(new TriageFinding({ account_id: p.account_id, scan_id: id, vulnerability_id: vulnerabilityId, decision: { state: body.state, reason: body.reason, expires_at: body.expires_at ?? null }, context: ctx }));
  }

  @Get(':id/diff')
  @ApiOperation({ summary: 'What changed since the previous finished scan of the same target: findings new, still open, and fixed' })
  @ApiOkResponse({ type: DiffView })
  async diff(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<DiffView> {
    return this.reader.changes(await this.reader.owned(p.account_id, id));
  }

  @Get(':id/status')
  @ApiOperation({ summary: 'Progress, phase and findings so far' })
  @ApiOkResponse({ type: ScanStatusView })
  async status(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<ScanStatusView> {
    return statusView(await this.reader.ownedNamed(p.account_id, id));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a pending or running scan' })
  @ApiOkResponse({ schema: { properties: { id: { type: 'string' }, status: { type: 'string' } } } })
  async cancel(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext) {
    await this.reader.owned(p.account_id, id);
    return this.commands.execute(new CancelScan({ account_id: p.account_id, scan_id: id, context: ctx }));
  }
}
