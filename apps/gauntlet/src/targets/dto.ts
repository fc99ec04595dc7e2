import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength, ValidateNested,
} from 'class-validator';
import { API_FORMATS, ApiFormat, SCAN_MODES, ScanMode } from '@gauntlet/domain';
import { CleanText } from '../http/clean-text';
import { SchemaRules } from '../http/openapi';
import { Clearable } from '../http/validation';
import { PageQuery } from '../http/pagination';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true };

export class BrowserSelectorsBody {
  @ApiPropertyOptional({ description: 'CSS selector of the chat input', maxLength: 500 })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(500)
  input_selector?: string;

  @ApiPropertyOptional({ description: 'CSS selector of the send button (Enter is pressed when absent)', maxLength: 500 })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(500)
  send_selector?: string;

  @ApiPropertyOptional({ description: 'CSS selector matching answer messages', maxLength: 500 })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(500)
  response_selector?: string;
}

export class HttpFormatBody {
  @ApiProperty({ description: 'JSON body with {{prompt}} and/or {{messages}} placeholders', example: '{"input": {{prompt}}}', maxLength: 10000, pattern: '\\{\\{(prompt|messages)\\}\\}' })
  @IsString() @CleanText({ multiline: true }) @MinLength(2) @MaxLength(10000)
  body_template: string;

  @ApiProperty({ description: 'dot path to the answer in the response JSON', example: 'output.text', maxLength: 200 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  response_path: string;
}

class TargetFields {
  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'strings planted in the target that must never appear in its output' })
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @CleanText({ each: true }) @MinLength(4, { each: true }) @MaxLength(200, { each: true })
  canaries?: string[];

  @ApiPropertyOptional({ type: BrowserSelectorsBody, description: 'selectors for chat pages the auto-detection cannot read' })
  @IsOptional() @ValidateNested() @Type(() => BrowserSelectorsBody)
  browser?: BrowserSelectorsBody;

  @ApiPropertyOptional({ type: HttpFormatBody, description: 'request and response shape when api_format is http' })
  @IsOptional() @ValidateNested() @Type(() => HttpFormatBody)
  http?: HttpFormatBody;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, description: 'upper bound on requests per second sent to the target; null removes it' })
  @Clearable() @IsOptional() @IsInt() @Min(1) @Max(100)
  max_requests_per_second?: number;

  @ApiPropertyOptional({ description: 'model name sent to the target API; null removes it', maxLength: 200 })
  @Clearable() @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  model?: string;

  @ApiPropertyOptional({ description: 'credential of the target API; stored encrypted, never returned', maxLength: 4096 })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(4096)
  api_key?: string;
}

/** the decider's rules between fields (libs/domain target.ts checkSettings), stated in the document */
@SchemaRules({
  anyOf: [
    { description: 'a chat page', properties: { scan_mode: { enum: ['browser'] } }, not: { required: ['api_format'] } },
    { description: 'a model API', properties: { scan_mode: { enum: ['api'] }, api_format: { not: { enum: ['http'] } } }, required: ['api_format'] },
    { description: 'any HTTP API, shaped by http', properties: { scan_mode: { enum: ['api'] }, api_format: { enum: ['http'] } }, required: ['api_format', 'http'] },
  ],
})
export class RegisterTargetBody extends TargetFields {
  @ApiProperty({ example: 'Support chatbot', maxLength: 200 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  name: string;

  @ApiProperty({ example: 'https://chat.example.com/', description: 'chat page (browser) or full API endpoint (api)', maxLength: 2048 })
  @IsString() @MaxLength(2048) @IsUrl(URL_OPTIONS)
  url: string;

  @ApiProperty({ enum: SCAN_MODES })
  @IsIn(SCAN_MODES)
  scan_mode: ScanMode;

  @ApiPropertyOptional({ enum: API_FORMATS, description: 'required when scan_mode is api' })
  @IsOptional() @IsIn(API_FORMATS)
  api_format?: ApiFormat;
}

/** what of the decider's rules a change alone can break (the rest depends on the target it changes) */
@SchemaRules({ not: { description: 'a chat page has no api_format', properties: { scan_mode: { enum: ['browser'] } }, required: ['scan_mode', 'api_format'] } })
export class UpdateTargetBody extends TargetFields {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional() @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2048 })
  @IsOptional() @IsString() @MaxLength(2048) @IsUrl(URL_OPTIONS)
  url?: string;

  @ApiPropertyOptional({ enum: SCAN_MODES })
  @IsOptional() @IsIn(SCAN_MODES)
  scan_mode?: ScanMode;

  @ApiPropertyOptional({ enum: API_FORMATS })
  @IsOptional() @IsIn(API_FORMATS)
  api_format?: ApiFormat;
}

export class TargetView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: SCAN_MODES }) scan_mode: ScanMode;
  @ApiProperty({ enum: API_FORMATS, nullable: true }) api_format: ApiFormat | null;
  @ApiProperty({ description: 'an API key is stored (it is never returned)' }) has_api_key: boolean;
  @ApiProperty({ nullable: true, type: String }) model: string | null;
  @ApiProperty({ type: [String] }) canaries: string[];
  @ApiProperty({ type: BrowserSelectorsBody, nullable: true }) browser: BrowserSelectorsBody | null;
  @ApiProperty({ type: HttpFormatBody, nullable: true }) http: HttpFormatBody | null;
  @ApiProperty({ nullable: true, type: Number }) max_requests_per_second: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class TargetList {
  @ApiProperty({ type: [TargetView] }) targets: TargetView[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as cursor for the next page; null on the last page' }) next_cursor: string | null;
}

export class ListTargetsQuery extends PageQuery {}
