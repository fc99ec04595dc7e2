import { Body, Controller, Get, Inject, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { problemType } from '../http/problem';
import { CommandContext } from '../platform/write-path';
import type { Config } from '../config/config';
import { CONFIG } from '../platform/tokens';
import { RequestScan, RequestedScan } from '../scans/requesting-scan/request-scan';
import { ScanReader } from '../scans/scan-reader';
import { budgetOf, DEFAULT_GATE, isTerminal } from '@gauntlet/domain';
import type { ScanDoc } from '@gauntlet/read-models';
import { gate, GateAnswer, GateFacts } from './ci-gate';
import { CiPendingView, CiResultView, CiScanBody, CiWaitQuery } from './dto';

const POLL_MS = 500;

@ApiTags('ci')
@ApiSecurity('api_key') @ApiBearerAuth()
@Controller('api/ci/scan')
export class CiController {
  constructor(private readonly commands: CommandBus, private readonly reader: ScanReader, @Inject(CONFIG) private readonly config: Config) {}

  @Post()
  @ApiOperation({ summary: 'Start a scan from a pipeline; with wait, answer when it ends and gate on fail_threshold' })
  @ApiAcceptedResponse({ type: CiPendingView, description: 'started (without wait)' })
  @ApiOkResponse({ type: CiResultView, description: 'passed' })
  @ApiResponse({ status: 422, type: CiResultView, description: 'security score below fail_threshold: the same body with passed false' })
  @ApiResponse({ status: 424, description: 'the scan failed or was cancelled, or ended completed_partial and the request did not say allow_partial: true (problem+json with scan_status and reason; for completed_partial also partial, coverage and security_grade_label)' })
  @ApiResponse({ status: 504, description: 'timeout_seconds passed first; poll GET /api/ci/scan/{scan_id}' })
  async start(@CurrentPrincipal() p: Principal, @Body() body: CiScanBody, @Ctx() ctx: CommandContext, @Res() reply: FastifyReply) {
    const policy = { fail_on: body.fail_on ?? 'score', allow_partial: body.allow_partial ?? false } as const;
    const scan: RequestedScan = await this.commands.execute(
      new RequestScan({ account_id: p.account_id, plan: p.plan, target_id: body.target_id, profile: body.profile ?? 'standard', origin: 'ci', fail_threshold: body.fail_threshold ?? 0, context: ctx, gate: policy, budget: budgetOf(body) }),
    );
    if (!body.wait) return this.send(reply, { status: 202, body: { scan_id: scan.id, status: 'pending' } });
    return this.answer(reply, p.account_id, scan.id, body.timeout_seconds ?? 900, {});
  }

  @Get(':scan_id')
  @ApiOperation({ summary: 'The gate for a CI scan: 202 while running, then 200 / 422 / 424 (fail_on and allow_partial default to what the scan was started with)' })
  @ApiOkResponse({ type: CiResultView, description: 'passed' })
  @ApiAcceptedResponse({ type: CiPendingView, description: 'still pending or running' })
  @ApiResponse({ status: 422, type: CiResultView, description: 'below fail_threshold (after triage), or with fail_on new a finding new since the previous scan: the same body with passed false' })
  @ApiResponse({ status: 424, description: 'the scan failed, was cancelled, or is completed_partial without allow_partial (problem+json with scan_status and reason; for completed_partial also partial, coverage and security_grade_label)' })
  @ApiResponse({ status: 504, description: 'wait_seconds passed before the scan ended' })
  async status(@CurrentPrincipal() p: Principal, @Param('scan_id', new ParseUUIDPipe()) id: string, @Query() q: CiWaitQuery, @Res() reply: FastifyReply) {
    await this.reader.owned(p.account_id, id);
    return this.answer(reply, p.account_id, id, q.wait_seconds ?? 0, { fail_on: q.fail_on, allow_partial: q.allow_partial });
  }

  /** triage and the diff as of now: read only once the scan has ended */
  private async facts(scan: ScanDoc): Promise<GateFacts | null> {
    if (!isTerminal(scan.status) || !scan.score) return null;
    const findings = await this.reader.triagedFindings(scan);
    const [after, changes] = await Promise.all([this.reader.scoreAfterTriage({ ...scan, score: scan.score }, findings), this.reader.changes(scan, findings)]);
    const open = new Set(findings.filter((v) => !v.triage || v.triage.state === 'open').map((v) => v.id));
    return { after_triage: after, base_scan_id: changes.base_scan_id, new_open: changes.new.filter((id) => open.has(id)) };
  }

  private async verdict(account_id: string, scan_id: string, override: { fail_on?: 'score' | 'new'; allow_partial?: boolean }): Promise<GateAnswer> {
    const scan = await this.reader.ownedNamed(account_id, scan_id);
    const recorded = scan.gate ?? DEFAULT_GATE;
    const policy = { fail_on: override.fail_on ?? recorded.fail_on, allow_partial: override.allow_partial ?? recorded.allow_partial };
    return gate(scan, this.config.publicBaseUrl, await this.facts(scan), policy);
  }

  private async answer(reply: FastifyReply, account_id: string, scan_id: string, waitSeconds: number, override: { fail_on?: 'score' | 'new'; allow_partial?: boolean }) {
    const deadline = Date.now() + waitSeconds * 1000;
    let answer = await this.verdict(account_id, scan_id, override);
    while (answer.status === 202 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, deadline - Date.now())));
      answer = await this.verdict(account_id, scan_id, override);
    }
    if (answer.status === 202 && waitSeconds > 0) {
      return this.problem(reply, 504, {
        slug: 'ci-timeout', title: 'The scan did not end in time',
        detail: `The scan is still ${answer.body.status} after ${waitSeconds} s; poll GET /api/ci/scan/${scan_id}.`,
        extensions: { scan_id, scan_status: answer.body.status },
      });
    }
    return this.send(reply, answer);
  }

  private send(reply: FastifyReply, answer: GateAnswer) {
    if (answer.status === 424) return this.problem(reply, 424, answer.problem);
    return reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.body);
  }

  private problem(reply: FastifyReply, status: number, p: { slug: string; title: string; detail: string; extensions: Record<string, unknown> }) {
    return reply
      .status(status)
      .header('content-type', 'application/problem+json; charset=utf-8')
      .send({ ...p.extensions, type: problemType(p.slug), title: p.title, status, detail: p.detail });
  }
}
