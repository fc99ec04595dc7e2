import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength, ValidateBy, ValidateNested,
} from 'class-validator';
import { API_FORMAT_SPECS, API_FORMATS, ApiFormat, customHeadersProblem, readTools, ToolsBody, toolsDescription, toolsSchema, ToolsView, toolsViewSchema, HEADER_NAME_PATTERN, HeaderPairs, MAX_CUSTOM_HEADERS, MAX_SENSITIVE_VALUES, MAX_TAGS, SCAN_MODES, ScanMode, tagsProblem } from '@gauntlet/domain';
import { CleanText } from '../http/clean-text';
import { SchemaRules } from '../http/openapi';
import { AsPairs, Clearable } from '../http/validation';
import { PageQuery } from '../http/pagination';

const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true };

/** custom headers: the domain's rule (headers.ts), its message as the field problem */
const IsCustomHeaders = () =>
  ValidateBy({
    name: 'isCustomHeaders',
    validator: {
      validate: (value) => customHeadersProblem(value) === null,
      defaultMessage: (args) => customHeadersProblem(args?.value) ?? 'invalid headers',
    },
  });

/** tools: read by their owner (target/target-tools.ts), its message as the field problem; the handler seals what was read here */
const IsTargetTools = () =>
  ValidateBy({
    name: 'isTargetTools',
    validator: {
      validate: (value) => 'setting' in readTools(value),
      defaultMessage: (args) => {
        const read = readTools(args?.value);
        return 'problem' in read ? read.problem.message : 'invalid tools';
      },
    },
  });

/** tags: the domain's rule (tags.ts), its message as the field problem */
const IsTags = () =>
  ValidateBy({
    name: 'isTags',
    validator: {
      validate: (value) => tagsProblem(value) === null,
      defaultMessage: (args) => tagsProblem(args?.value) ?? 'invalid tags',
    },
  });

/**
 * api_format in the document, from the format registry (libs/domain target/formats): the enum,
 * each format's one line in the description, and its short label in `x-enum-descriptions` (an
 * array parallel to `enum`), which the dashboard shows in its forms.
 */
const API_FORMAT_SCHEMA = {
  enum: API_FORMATS,
  'x-enum-descriptions': API_FORMAT_SPECS.map((f) => f.label),
} as ApiPropertyOptions;
const FORMATS_DESCRIPTION = `required when scan_mode is api. ${API_FORMAT_SPECS.map((f) => `${f.name}: ${f.description}`).join('; ')}`;

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

export class SensitiveValueBody {
  @ApiProperty({ description: 'what the value is, as reports and findings name it (e.g. "customer IBAN", "payments API key", "system prompt")', example: 'customer IBAN', maxLength: 100 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(100)
  label: string;

  @ApiProperty({ description: 'the value itself; stored encrypted, never returned', example: '<IBAN>', maxLength: 20000 })
  @IsString() @CleanText({ multiline: true }) @MinLength(4) @MaxLength(20000)
  value: string;
}

export class SensitiveLabelView {
  @ApiProperty() label: string;
  @ApiProperty({ description: 'keyed fingerprint of the value (equal values, equal fingerprints); the value is never returned' }) fingerprint: string;
}

class TargetFields {
  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'strings planted in the target that must never appear in its output' })
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @CleanText({ each: true }) @MinLength(4, { each: true }) @MaxLength(200, { each: true })
  canaries?: string[];

  @ApiPropertyOptional({
    type: [SensitiveValueBody], maxItems: MAX_SENSITIVE_VALUES,
    description: 'values the owner knows are behind the bot (a customer record, an internal code, a key prefix, the system prompt); detectors find them in answers partially and reformatted. Write-only: sealed like api_key, reads return each label with a fingerprint. On PATCH the whole set is replaced; null removes it.',
  })
  @Clearable() @IsOptional() @IsArray() @ArrayMaxSize(MAX_SENSITIVE_VALUES) @ValidateNested({ each: true }) @Type(() => SensitiveValueBody)
  sensitive?: SensitiveValueBody[] | null;

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

  @ApiPropertyOptional({
    type: 'object', additionalProperties: { type: 'string', maxLength: 4096, pattern: '^[\\t\\x20-\\x7e\\x80-\\xff]*$' }, maxProperties: MAX_CUSTOM_HEADERS,
    propertyNames: { pattern: HEADER_NAME_PATTERN },
    example: { 'Ocp-Apim-Subscription-Key': '<GATEWAY_KEY>' },
    description:
      'extra request headers for a gateway in front of the API (api targets); stored encrypted like api_key, never returned (only their names are). ' +
      'Names are HTTP tokens (RFC 9110), compared without regard to case: one named like the format\'s key header (Authorization, x-api-key, api-key, x-goog-api-key) replaces it. ' +
      'Host, Content-Type, Content-Length and other HTTP framing headers are refused. On PATCH the whole set is replaced; null removes it.',
  } as Parameters<typeof ApiPropertyOptional>[0])
  // as pairs from here on: an object mapper skips keys such as `constructor`, and they are header names too
  @Clearable() @IsOptional() @IsCustomHeaders() @AsPairs()
  headers?: HeaderPairs | null;

  @ApiPropertyOptional({ description: 'ask the API to stream its answers (server-sent events, or JSON lines for ollama); both kinds are read either way', default: false })
  @IsOptional() @IsBoolean()
  stream?: boolean;

  @ApiPropertyOptional({
    type: [String], maxItems: MAX_TAGS, example: ['prod', 'team:support'],
    description: 'groups for the fleet view and for schedules by tag; stored lower-cased, each once (1 to 50 of a-z 0-9 - _ . : /). On PATCH the whole list is replaced.',
  })
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_TAGS) @IsString({ each: true }) @IsTags()
  tags?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 100, nullable: true, description: 'a finished scan whose score fell by more than this many points since the previous one raises scan.regressed; null: only weaknesses found again after being triaged fixed do' })
  @Clearable() @IsOptional() @IsInt() @Min(1) @Max(100)
  regression_threshold?: number | null;

  @ApiPropertyOptional({
    ...toolsSchema('api'),
    description: toolsDescription('api'),
    example: 'decoy',
  } as Parameters<typeof ApiPropertyOptional>[0])
  @IsOptional() @IsTargetTools()
  tools?: ToolsBody;
}

/** the decider's rules between fields (libs/domain target.ts checkSettings), stated in the document */
@SchemaRules({
  anyOf: [
    { description: 'a chat page', properties: { scan_mode: { enum: ['browser'] } }, not: { required: ['api_format'] } },
    { description: 'a model API', properties: { scan_mode: { enum: ['api'] }, api_format: { enum: API_FORMAT_SPECS.filter((f) => !f.documentedNeeds).map((f) => f.name) } }, required: ['api_format'] },
    // what the formats that need more than a URL ask (their endpointProblem and settingsProblem), as each format documents it
    ...API_FORMAT_SPECS.flatMap(({ name, documentedNeeds: needs }) =>
      needs
        ? [{ description: needs.description, properties: { scan_mode: { enum: ['api'] }, api_format: { enum: [name] } }, required: ['api_format', ...(needs.required ?? [])], ...(needs.anyOf && { anyOf: needs.anyOf }) }]
        : [],
    ),
  ],
})
export class RegisterTargetBody extends TargetFields {
  @ApiProperty({ example: 'Support chatbot', maxLength: 200 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(200)
  name: string;

  @ApiProperty({ example: 'https://api.example.com/v1', description: 'the chat page (browser), or the API (api): a base URL as the SDKs take it or the full endpoint; the view\'s `endpoint` shows what is called', maxLength: 2048 })
  @IsString() @MaxLength(2048) @IsUrl(URL_OPTIONS)
  url: string;

  @ApiProperty({ enum: SCAN_MODES })
  @IsIn(SCAN_MODES)
  scan_mode: ScanMode;

  @ApiPropertyOptional({ ...API_FORMAT_SCHEMA, description: FORMATS_DESCRIPTION })
  @IsOptional() @IsIn(API_FORMATS)
  api_format?: ApiFormat;

  @ApiPropertyOptional({ description: 'run the connection check (POST /api/targets/{id}/check) right after registering; its result comes back as `check`', default: false })
  @IsOptional() @IsBoolean()
  check?: boolean;
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

  @ApiPropertyOptional(API_FORMAT_SCHEMA)
  @IsOptional() @IsIn(API_FORMATS)
  api_format?: ApiFormat;
}

export class TargetView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'as typed' }) url: string;
  @ApiProperty({ description: 'what is actually called: the full API endpoint that url means for api_format, or the chat page' }) endpoint: string;
  @ApiProperty({ enum: SCAN_MODES }) scan_mode: ScanMode;
  @ApiProperty({ ...API_FORMAT_SCHEMA, nullable: true }) api_format: ApiFormat | null;
  @ApiProperty({ description: 'an API key is stored (it is never returned)' }) has_api_key: boolean;
  @ApiProperty({ nullable: true, type: String }) model: string | null;
  @ApiProperty({ type: [String] }) canaries: string[];
  @ApiProperty({ type: BrowserSelectorsBody, nullable: true }) browser: BrowserSelectorsBody | null;
  @ApiProperty({ type: HttpFormatBody, nullable: true }) http: HttpFormatBody | null;
  @ApiProperty({ nullable: true, type: Number }) max_requests_per_second: number | null;
  @ApiProperty({ type: [String], description: 'names of the custom headers stored (their values are never returned)' }) header_names: string[];
  @ApiProperty({ type: [SensitiveLabelView], description: 'the sensitive values watched for: labels and fingerprints only' }) sensitive: SensitiveLabelView[];
  @ApiProperty() stream: boolean;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ nullable: true, type: Number, description: 'score drop, in points, beyond which a finished scan raises scan.regressed' }) regression_threshold: number | null;
  @ApiProperty({ ...toolsViewSchema(), description: 'what the agent is offered in a scan (the default said out loud); MCP headers by name only' } as Parameters<typeof ApiProperty>[0])
  tools: ToolsView;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class TargetCheckScreenshot {
  @ApiProperty({ enum: ['image/png'] }) content_type: string;
  @ApiProperty({ description: 'the image, base64' }) data: string;
}

export class TargetCheckView {
  @ApiProperty({ description: 'the target answered a harmless message in a form Gauntlet reads' }) ok: boolean;
  @ApiProperty({ description: 'what was called: the API endpoint, or the chat page' }) endpoint: string;
  @ApiProperty({ nullable: true, type: Number, description: "the target's HTTP status, null when there was none (no connection, refused by policy, a browser target)" }) status: number | null;
  @ApiProperty({ description: 'time until the answer, or until the check gave up' }) latency_ms: number;
  @ApiProperty({ description: 'what happened, in one sentence' }) diagnosis: string;
  @ApiProperty({ nullable: true, type: String, description: 'what to change, when something should' }) hint: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'the start of the answer, when there was one' }) answer: string | null;
  @ApiProperty({ type: TargetCheckScreenshot, nullable: true, description: 'browser targets: the page as the check left it' }) screenshot: TargetCheckScreenshot | null;
  @ApiProperty({ format: 'date-time' }) checked_at: string;
}

export class RegisteredTargetView extends TargetView {
  @ApiPropertyOptional({ type: TargetCheckView, description: 'present when the request had check: true' }) check?: TargetCheckView;
}

export class TargetList {
  @ApiProperty({ type: [TargetView] }) targets: TargetView[];
  @ApiProperty({ nullable: true, type: String, description: 'pass as cursor for the next page; null on the last page' }) next_cursor: string | null;
}

export class ListTargetsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'only targets carrying this tag', example: 'prod', maxLength: 50 })
  @IsOptional() @IsString() @MaxLength(50)
  tag?: string;
}
