import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { SEVERITIES, Severity, WEBHOOK_EVENT_TYPES, WebhookEventType } from '@gauntlet/domain';
import { FORMAT_TYPES, SIEM_FORMATS, SiemFormat } from '@gauntlet/webhooks';
import { PageQuery } from '../http/pagination';

/** format_type in the document, from the SIEM format registry: its names, and their labels in x-enum-descriptions (the dashboard's select) */
const FORMAT_TYPE_SCHEMA = { enum: FORMAT_TYPES, 'x-enum-descriptions': SIEM_FORMATS.map((f) => f.label) } as ApiPropertyOptions;

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true };

export class RegisterWebhookBody {
  @ApiProperty({ example: 'https://siem.example.com/hooks/gauntlet', maxLength: 2048 })
  @IsString() @MaxLength(2048) @IsUrl(URL_OPTIONS)
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 2) @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types: WebhookEventType[];

  @ApiProperty(FORMAT_TYPE_SCHEMA)
  @IsIn(FORMAT_TYPES)
  format_type: SiemFormat;
}

export class WebhookView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) event_types: string[];
  @ApiProperty(FORMAT_TYPE_SCHEMA) format_type: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'why it was disabled (e.g. the endpoint answered 410 Gone)' }) disabled_reason: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreatedWebhookView extends WebhookView {
  @ApiProperty({ description: 'whsec_ + base64 of 32 random bytes: shown only here and on rotation' }) secret: string;
}

export class WebhookList {
  @ApiProperty({ type: [WebhookView] }) webhooks: WebhookView[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}

export class RotatedSecretView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() secret: string;
}

class AttemptView {
  @ApiProperty() n: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ nullable: true, type: Number }) status: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty() duration_ms: number;
  @ApiPropertyOptional() manual?: boolean;
}

export class DeliveryView {
  @ApiProperty() id: string;
  @ApiProperty() webhook_id: string;
  @ApiProperty() event: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'dropped'] }) status: string;
  @ApiProperty({ type: [AttemptView] }) attempts: AttemptView[];
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_attempt_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeliveryList {
  @ApiProperty({ type: [DeliveryView] }) deliveries: DeliveryView[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}

export class ListDeliveriesQuery extends PageQuery {}

export class AlertWebhookBody {
  @ApiProperty({ maxLength: 2048 })
  @IsString() @MaxLength(2048) @IsUrl(URL_OPTIONS)
  url: string;

  @ApiProperty(FORMAT_TYPE_SCHEMA)
  @IsIn(FORMAT_TYPES)
  format_type: SiemFormat;

  @ApiPropertyOptional({ enum: SEVERITIES, default: 'medium', description: 'alerts below this severity are recorded but not delivered' })
  @IsOptional() @IsIn(SEVERITIES)
  min_severity?: Severity;
}

export class AlertWebhookView {
  @ApiProperty({ format: 'uuid' }) target_id: string;
  @ApiProperty() url: string;
  @ApiProperty(FORMAT_TYPE_SCHEMA) format_type: string;
  @ApiProperty({ enum: SEVERITIES }) min_severity: Severity;
  @ApiProperty() enabled: boolean;
}

export class CreatedAlertWebhookView extends AlertWebhookView {
  @ApiProperty({ description: 'shown only here' }) secret: string;
}
