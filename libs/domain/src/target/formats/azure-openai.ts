import { ApiFormatSpec, TypedUrl } from './api-format';
import { chatCompletionsRequest, chatCompletionsToolsRequest, readOpenAiAgentAnswer, readOpenAiAnswer } from './openai';

/** Azure OpenAI's latest GA data-plane version, used when a deployment URL names none. */
export const AZURE_OPENAI_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI: OpenAI's chat completions on a deployment URL (with its api-version), the key
 * in an `api-key` header. The deployment decides the model; one given is sent all the same.
 */
export const azureOpenai: ApiFormatSpec<'azure-openai'> = {
  name: 'azure-openai',
  label: 'Azure OpenAI',
  description: 'a deployment URL (key in api-key, api-version added when absent)',
  urlShape: 'the deployment URL, https://{resource}.openai.azure.com/openai/deployments/{deployment}',
  key: { header: 'api-key' },
  documentedNeeds: {
    description: 'azure-openai: a deployment URL (.../openai/deployments/{deployment}), or model naming the deployment',
    anyOf: [{ required: ['model'] }, { properties: { url: { pattern: '/openai/(deployments/[^/?#]+|v1)([/?#]|$)' } } }],
  },
  endpoint,
  endpointProblem: ({ path, model }) =>
    !/\/openai\/(deployments\/[^/]+|v1)(\/|$)/.test(`${path}/`) && !model
      ? { field: 'url', message: 'api_format azure-openai needs a deployment URL (https://{resource}.openai.azure.com/openai/deployments/{deployment}) or model naming the deployment.' }
      : null,
  // its answers are OpenAI's: a misconfigured target answering them is named openai
  request: chatCompletionsRequest,
  read: readOpenAiAnswer,
  tools: { request: chatCompletionsToolsRequest, read: readOpenAiAgentAnswer },
};

function endpoint({ url, path, model }: TypedUrl): string {
  // the v1 API (2025): OpenAI's shape under /openai/v1, no api-version
  const v1 = path.match(/^(.*\/openai\/v1)(\/chat\/completions)?$/);
  if (v1) {
    url.pathname = `${v1[1]}/chat/completions`;
    return url.toString();
  }
  const deployment = path.match(/^(.*\/openai\/deployments\/[^/]+)(\/chat\/completions)?$/);
  url.pathname = deployment ? `${deployment[1]}/chat/completions` : `${path.replace(/\/openai$/, '')}/openai/deployments/${encodeURIComponent(model ?? '')}/chat/completions`;
  if (!url.searchParams.has('api-version')) url.searchParams.set('api-version', AZURE_OPENAI_API_VERSION);
  return url.toString();
}
