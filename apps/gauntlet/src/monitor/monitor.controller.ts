import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { AgentAlertDoc, TargetDoc } from '@gauntlet/read-models';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { decodeCursor, page, PageQuery } from '../http/pagination';
import { ProblemException } from '../http/problem';
import { CommandContext } from '../platform/write-path';
import { TargetReader } from '../targets/target-reader';
import { AlertWebhookBody, AlertWebhookView, CreatedAlertWebhookView } from '../webhooks/dto';
import { WebhookReader } from '../webhooks/webhook-reader';
import { ConfigureAlertWebhook } from './configuring-alert-webhook/configure-alert-webhook';
import { AlertList, AlertView, IngestBody, IngestResult } from './dto';
import { IngestAgentEvents } from './ingesting-events/ingest-agent-events';
import { RemoveAlertWebhook } from './removing-alert-webhook/remove-alert-webhook';

const alertView = ({ _id, _rev, account_id, target_id, ...a }: AgentAlertDoc): AlertView => a as AlertView;

/** The Live Agent Monitor: a deployed agent's traffic judged as it arrives, alerts to a per-target webhook. */
@ApiTags('agent-monitor')
@ApiSecurity('api_key') @ApiBearerAuth()
@Controller('api/agent-monitor/target/:id')
export class MonitorController {
  constructor(private readonly commands: CommandBus, private readonly targets: TargetReader, private readonly webhooks: WebhookReader) {}

  private target(p: Principal, id: string): Promise<TargetDoc> {
    return this.targets.owned(p.account_id, id);
  }

  @Post('webhook')
  @ApiOperation({ summary: 'Configure the alert webhook of a target (replaces an earlier one); its secret is shown only here' })
  @ApiCreatedResponse({ type: CreatedAlertWebhookView })
  async configure(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: AlertWebhookBody, @Ctx() ctx: CommandContext): Promise<CreatedAlertWebhookView> {
    await this.target(p, id);
    return this.commands.execute(new ConfigureAlertWebhook({ account_id: p.account_id, target_id: id, body, context: ctx }));
  }

  @Get('webhook')
  @ApiOperation({ summary: 'The alert webhook of a target' })
  @ApiOkResponse({ type: AlertWebhookView })
  async get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<AlertWebhookView> {
    await this.target(p, id);
    const hook = await this.webhooks.alertWebhook(id);
    if (!hook) throw new ProblemException(404, 'No alert webhook is configured for this target.');
    return { target_id: id, url: hook.url, format_type: hook.format_type, min_severity: hook.min_severity ?? 'medium', enabled: hook.enabled };
  }

  @Delete('webhook')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove the alert webhook of a target (alerts are still recorded)' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<void> {
    await this.target(p, id);
    await this.commands.execute(new RemoveAlertWebhook({ account_id: p.account_id, target_id: id, context: ctx }));
  }

  @Post('events')
  @HttpCode(202)
  @ApiOperation({ summary: "Send a batch of the agent's traffic (inputs, outputs, tool calls); answers with the alerts raised" })
  @ApiAcceptedResponse({ type: IngestResult })
  async ingest(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: IngestBody, @Ctx() ctx: CommandContext): Promise<IngestResult> {
    const target = await this.target(p, id);
    return this.commands.execute(new IngestAgentEvents({ account_id: p.account_id, target, events: body.events, context: ctx }));
  }

  @Get('alerts')
  @ApiOperation({ summary: 'Alerts raised for a target, newest first' })
  @ApiOkResponse({ type: AlertList })
  async alerts(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: PageQuery): Promise<AlertList> {
    await this.target(p, id);
    const limit = q.limit ?? 50;
    const docs = await this.webhooks.alerts(id, limit + 1, decodeCursor(q.cursor));
    const { items, next_cursor } = page(docs, limit, 'occurred_at');
    return { alerts: items.map(alertView), next_cursor };
  }
}
