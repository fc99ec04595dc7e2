import { ApiFormatSpec, estimateTokens, FormatSettings, keyHeaders, readAgentAnswer, readAnswer } from '@gauntlet/domain';
import type { AgentAnswer, AgentTurn, ChatTurn, ToolDefinition } from '@gauntlet/domain';
import { ApiChatDriver } from './api-conversation';
import { ApiDriverOptions } from './api-transport';

/** A target as the API driver calls it: the endpoint (not the URL typed), the key, the format's settings. */
export interface ApiFormatTarget extends Partial<FormatSettings> {
  /** the full endpoint (endpoint.ts derives it from what was typed) */
  url: string;
  api_key?: string | null;
}

/**
 * The one driver for every model API: the format (libs/domain target/formats/) says what to
 * send and how the answer reads; this sends it through the transport (outbound guard, pacing,
 * retries) with the key where the format puts it.
 */
export class ApiFormatChatDriver extends ApiChatDriver {
  private readonly settings: FormatSettings;

  constructor(readonly format: ApiFormatSpec, private readonly target: ApiFormatTarget, options: ApiDriverOptions) {
    super(options);
    this.settings = { model: target.model ?? null, stream: target.stream ?? false, http: target.http ?? null };
    if (!format.tools) this.completeWithTools = undefined;
  }

  protected completeWithTools?(turns: AgentTurn[], tools: readonly ToolDefinition[], signal?: AbortSignal): Promise<AgentAnswer> {
    const calling = this.format.tools!;
    const { url, api_key } = this.target;
    const request = calling.request(turns, tools, this.settings);
    const headers = { ...request.headers, ...keyHeaders(this.format.key, api_key) };
    const tokens = saidTokens(turns) + estimateTokens(JSON.stringify(tools));
    return this.transport.post({ url, headers, body: request.body, secrets: [api_key], tokens }, (answer) => readAgentAnswer(this.format, answer, this.settings), signal);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key } = this.target;
    const request = this.format.request(turns, this.settings);
    const headers = { ...request.headers, ...keyHeaders(this.format.key, api_key) };
    return this.transport.post({ url, headers, body: request.body, secrets: [api_key], tokens: saidTokens(turns) }, (answer) => readAnswer(this.format, answer, this.settings), signal);
  }
}

/**
 * The tokens a request says, as the plan counts them: the conversation so far (an API has no memory
 * between requests), an agent's calls and the results it was given included; the format's own
 * wrapping (JSON keys, roles) is left out.
 */
function saidTokens(turns: readonly (ChatTurn | AgentTurn)[]): number {
  let tokens = 0;
  for (const t of turns) {
    tokens += estimateTokens(t.content);
    const calls = (t as AgentTurn).tool_calls;
    if (calls?.length) tokens += estimateTokens(JSON.stringify(calls));
  }
  return tokens;
}
