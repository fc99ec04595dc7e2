import { Body, Controller, Get, Inject, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Principal } from '../auth/principal';
import { Ctx } from '../http/context';
import { problemType } from '../http/problem';
import { CommandContext } from '../platform/aggregates';
import { RUNTIME, Runtime } from '../runtime';
import { RequestScan, RequestedScan } from '../scans/requesting-scan/request-scan';
import { ScanReader } from '../scans/scan-reader';
import { gate, GateAnswer } from './ci-gate';
import { CiPendingView, CiResultView, CiScanBody, CiWaitQuery } from './dto';

const POLL_MS = 500;

@ApiTags('ci')
@ApiSecurity('api_key') @ApiBearerAuth()
@Controller('api/ci/scan')
export class CiController {
  constructor(private readonly commands: CommandBus, private readonly reader: ScanReader, @Inject(RUNTIME) private readonly runtime: Runtime) {}

  @Post()
  @ApiOperation({ summary: 'Start a scan from a pipeline; with wait, answer when it ends and gate on fail_threshold' })
  @ApiAcceptedResponse({ type: CiPendingView, description: 'started (without wait)' })
  @ApiOkResponse({ type: CiResultView, description: 'passed' })
  @ApiResponse({ status: 422, type: CiResultView, description: 'security score below fail_threshold: the same body with passed false' })
  @ApiResponse({ status: 424, description: 'the scan failed or was cancelled' })
  @ApiResponse({ status: 504, description: 'timeout_seconds passed first; poll GET /api/ci/scan/{scan_id}' })
  async start(@CurrentPrincipal() p: Principal, @Body() body: CiScanBody, @Ctx() ctx: CommandContext, @Res() reply: FastifyReply) {
    const scan: RequestedScan = await this.commands.execute(new RequestScan(p.account_id, p.plan, body.target_id, body.profile ?? 'standard', 'ci', body.fail_threshold, ctx));
    if (!body.wait) return this.send(reply, { status: 202, body: { scan_id: scan.id, status: 'pending' } });
    return this.answer(reply, p.account_id, scan.id, body.timeout_seconds ?? 900);
  }

  @Get(':scan_id')
  @ApiOperation({ summary: 'The gate for a CI scan: 202 while running, then 200 / 422 / 424' })
  @ApiOkResponse({ type: CiResultView, description: 'passed' })
  @ApiAcceptedResponse({ type: CiPendingView, description: 'still pending or running' })
  @ApiResponse({ status: 422, type: CiResultView, description: 'security score below fail_threshold: the same body with passed false' })
  @ApiResponse({ status: 424, description: 'the scan failed or was cancelled (or ended partial without allow_partial)' })
  @ApiResponse({ status: 504, description: 'wait_seconds passed before the scan ended' })
  async status(@CurrentPrincipal() p: Principal, @Param('scan_id', new ParseUUIDPipe()) id: string, @Query() q: CiWaitQuery, @Res() reply: FastifyReply) {
    await this.reader.owned(p.account_id, id);
    return this.answer(reply, p.account_id, id, q.wait_seconds ?? 0);
  }

  private async answer(reply: FastifyReply, account_id: string, scan_id: string, waitSeconds: number) {
    const deadline = Date.now() + waitSeconds * 1000;
    let answer = gate(await this.reader.owned(account_id, scan_id), this.runtime.config.publicBaseUrl);
    while (answer.status === 202 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, deadline - Date.now())));
      answer = gate(await this.reader.owned(account_id, scan_id), this.runtime.config.publicBaseUrl);
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
