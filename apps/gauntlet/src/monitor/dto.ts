import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { AGENT_EVENT_KINDS, AgentEventKind } from '@gauntlet/domain';
import { CleanText, IsRfc3339 } from '../http/clean-text';
import { FREE_JSON_REF } from '../http/openapi';

export const MAX_EVENTS_PER_BATCH = 500;

export class ToolCallBody {
  @ApiProperty({ maxLength: 200 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ description: 'the arguments as the agent sent them', allOf: [{ $ref: FREE_JSON_REF }] })
  @IsOptional() @IsDefined()
  arguments?: unknown;
}

export class AgentEventBody {
  @ApiProperty({ maxLength: 200 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  session_id: string;

  @ApiProperty({
    enum: AGENT_EVENT_KINDS,
    description: "input: what reached the agent (the user's message; with `tool`, that tool's result: a fetched page, an e-mail read); output: the agent's answer; tool_call: a call it made (`tool`), its content the result it got back, if any",
  })
  @IsIn(AGENT_EVENT_KINDS)
  kind: AgentEventKind;

  // the agent's traffic as it was: hidden characters in it are what the detectors look for, so
  // content is not cleaned like names are
  @ApiProperty({ maxLength: 100_000, description: 'the text as the agent saw or said it (not cleaned: the detectors read hidden characters too)' })
  @IsString() @MaxLength(100_000)
  content: string;

  @ApiPropertyOptional({ type: ToolCallBody, description: 'tool_call: the call; input: the tool whose result the content is' })
  @IsOptional() @ValidateNested() @Type(() => ToolCallBody)
  tool?: ToolCallBody;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional() @IsRfc3339()
  occurred_at?: string;
}

export class IngestBody {
  @ApiProperty({ type: [AgentEventBody], maxItems: MAX_EVENTS_PER_BATCH })
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_EVENTS_PER_BATCH) @ValidateNested({ each: true }) @Type(() => AgentEventBody)
  events: AgentEventBody[];
}

export class AlertView {
  @ApiProperty() id: string;
  @ApiProperty() session_id: string;
  @ApiProperty({ enum: AGENT_EVENT_KINDS }) kind: string;
  @ApiProperty({ example: 'prompt-injection:override' }) rule: string;
  @ApiProperty({ enum: ['critical', 'high', 'medium', 'low'] }) severity: string;
  @ApiProperty() detector: string;
  @ApiProperty({ nullable: true, type: String }) matched: string | null;
  @ApiProperty({ format: 'date-time' }) occurred_at: string;
}

export class IngestResult {
  @ApiProperty() accepted: number;
  @ApiProperty({ type: [AlertView] }) alerts: AlertView[];
}

export class AlertList {
  @ApiProperty({ type: [AlertView] }) alerts: AlertView[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}
