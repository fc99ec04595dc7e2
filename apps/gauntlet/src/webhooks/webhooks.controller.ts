import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { WebhookDoc } from '@gauntlet/read-models';
import type { WebhookDeliveryDoc } from '@gauntlet/webhooks';
import { CurrentPrincipal, Principal } from '../http/principal';
import { Ctx } from '../http/context';
import { decodeCursor, page, PageQuery } from '../http/pagination';
import { ProblemException } from '../http/problem';
import { CommandContext } from '../platform/write-path';
import { DeleteWebhook } from './deleting-webhook/delete-webhook';
import { CreatedWebhookView, DeliveryList, DeliveryView, ListDeliveriesQuery, RegisterWebhookBody, RotatedSecretView, WebhookList, WebhookView } from './dto';
import { RegisterWebhook } from './registering-webhook/register-webhook';
import { RotateWebhookSecret } from './rotating-secret/rotate-secret';
import { WebhookReader } from './webhook-reader';
import { WebhookTester } from './webhook-tester';

export const webhookView = (d: WebhookDoc): WebhookView => ({
  id: d._id, url: d.url, event_types: d.event_types, format_type: d.format_type, enabled: d.enabled, disabled_reason: d.disabled_reason, created_at: d.created_at,
});

export const deliveryView = (d: WebhookDeliveryDoc): DeliveryView => ({
  id: d._id, webhook_id: d.webhook_id, event: d.event, status: d.status, attempts: d.attempts, next_attempt_at: d.next_attempt_at, created_at: d.created_at, updated_at: d.updated_at,
});

@ApiTags('webhooks')
@ApiSecurity('api_key') @ApiBearerAuth()
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly commands: CommandBus, private readonly tester: WebhookTester, private readonly webhooks: WebhookReader) {}

  private owned(account_id: string, id: string): Promise<WebhookDoc> {
    return this.webhooks.owned(account_id, id);
  }

  @Post()
  @ApiOperation({ summary: 'Register a webhook; its signing secret is shown only in this response' })
  @ApiCreatedResponse({ type: CreatedWebhookView })
  register(@CurrentPrincipal() p: Principal, @Body() body: RegisterWebhookBody, @Ctx() ctx: CommandContext): Promise<CreatedWebhookView> {
    return this.commands.execute(new RegisterWebhook({ account_id: p.account_id, body, context: ctx }));
  }

  @Get()
  @ApiOperation({ summary: 'List webhooks, newest first' })
  @ApiOkResponse({ type: WebhookList })
  async list(@CurrentPrincipal() p: Principal, @Query() q: PageQuery): Promise<WebhookList> {
    const limit = q.limit ?? 50;
    const docs = await this.webhooks.list(p.account_id, limit + 1, decodeCursor(q.cursor));
    const { items, next_cursor } = page(docs, limit, 'created_at');
    return { webhooks: items.map(webhookView), next_cursor };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook (never its secret)' })
  @ApiOkResponse({ type: WebhookView })
  async get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<WebhookView> {
    return webhookView(await this.owned(p.account_id, id));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook; pending retries to it are dropped' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<void> {
    await this.owned(p.account_id, id);
    await this.commands.execute(new DeleteWebhook({ account_id: p.account_id, webhook_id: id, context: ctx }));
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'Replace the signing secret; the new one is shown only in this response' })
  @ApiOkResponse({ type: RotatedSecretView })
  async rotate(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<RotatedSecretView> {
    await this.owned(p.account_id, id);
    return this.commands.execute(new RotateWebhookSecret({ account_id: p.account_id, webhook_id: id, context: ctx }));
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Send a signed ping event now (one attempt, no retries) and answer with its delivery record' })
  @ApiOkResponse({ type: DeliveryView })
  async test(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<DeliveryView> {
    const webhook = await this.owned(p.account_id, id);
    return deliveryView(await this.tester.ping(webhook));
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'The delivery log, newest first, with every attempt' })
  @ApiOkResponse({ type: DeliveryList })
  async deliveries(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: ListDeliveriesQuery): Promise<DeliveryList> {
    await this.owned(p.account_id, id);
    const limit = q.limit ?? 50;
    const docs = await this.webhooks.deliveries(id, limit + 1, decodeCursor(q.cursor));
    const { items, next_cursor } = page(docs, limit, 'created_at');
    return { deliveries: items.map(deliveryView), next_cursor };
  }

  @Post(':id/deliveries/:delivery_id/redeliver')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again (one attempt, with the same delivery id)' })
  @ApiAcceptedResponse({ schema: { properties: { delivery_id: { type: 'string' } } } })
  async redeliver(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Param('delivery_id') deliveryId: string) {
    await this.owned(p.account_id, id);
    const ok = await this.tester.redeliver(id, deliveryId);
    if (!ok) throw new ProblemException(404, 'Delivery not found.');
    return { delivery_id: deliveryId };
  }
}
