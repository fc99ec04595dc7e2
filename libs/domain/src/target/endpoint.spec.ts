import { apiEndpoint, endpointProblem, EndpointInput } from './endpoint';
import { AZURE_OPENAI_API_VERSION } from './formats';

const called = (api_format: EndpointInput['api_format'], url: string, model: string | null = null, stream = false) => apiEndpoint({ api_format, url, model, stream });

describe('the endpoint a target URL means', () => {
  it('openai: a base URL, a bare host or the full endpoint all reach chat completions', () => {
    expect(called('openai', 'https://api.example.com/v1')).toBe('https://api.example.com/v1/chat/completions');
    expect(called('openai', 'https://api.example.com/v1/')).toBe('https://api.example.com/v1/chat/completions');
    expect(called('openai', 'https://api.example.com/v1/chat/completions')).toBe('https://api.example.com/v1/chat/completions');
    expect(called('openai', 'https://api.example.com')).toBe('https://api.example.com/v1/chat/completions');
    // a gateway's own prefix is kept as typed
    expect(called('openai', 'https://gw.example.com/openai/v1?team=a')).toBe('https://gw.example.com/openai/v1/chat/completions?team=a');
  });

  it('anthropic: .../v1 or .../v1/messages', () => {
    expect(called('anthropic', 'https://api.anthropic.com/v1')).toBe('https://api.anthropic.com/v1/messages');
    expect(called('anthropic', 'https://api.anthropic.com/v1/messages')).toBe('https://api.anthropic.com/v1/messages');
    expect(called('anthropic', 'https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
  });

  it('openai-responses: the Responses API under the same base URL', () => {
    expect(called('openai-responses', 'https://api.openai.com/v1')).toBe('https://api.openai.com/v1/responses');
    expect(called('openai-responses', 'https://api.openai.com/v1/responses')).toBe('https://api.openai.com/v1/responses');
  });

  it('ollama: the native /api/chat from the server address', () => {
    expect(called('ollama', 'http://localhost:11434', 'llama3.2')).toBe('http://localhost:11434/api/chat');
    expect(called('ollama', 'http://localhost:11434/api', 'llama3.2')).toBe('http://localhost:11434/api/chat');
    expect(called('ollama', 'http://localhost:11434/api/chat', 'llama3.2')).toBe('http://localhost:11434/api/chat');
  });

  it('azure-openai: a deployment URL gets chat/completions and an api-version unless it has one', () => {
    const d = 'https://res.openai.azure.com/openai/deployments/gpt4o';
    expect(called('azure-openai', d)).toBe(`${d}/chat/completions?api-version=${AZURE_OPENAI_API_VERSION}`);
    expect(called('azure-openai', `${d}/chat/completions?api-version=2025-01-01-preview`)).toBe(`${d}/chat/completions?api-version=2025-01-01-preview`);
    // the resource alone, with the deployment in model
    expect(called('azure-openai', 'https://res.openai.azure.com', 'gpt4o')).toBe(`${d}/chat/completions?api-version=${AZURE_OPENAI_API_VERSION}`);
    // the v1 API takes no api-version
    expect(called('azure-openai', 'https://res.openai.azure.com/openai/v1')).toBe('https://res.openai.azure.com/openai/v1/chat/completions');
  });

  it('gemini: generateContent of the model, streamGenerateContent with SSE when streaming', () => {
    const g = 'https://generativelanguage.googleapis.com';
    expect(called('gemini', `${g}/v1beta`, 'gemini-2.0-flash')).toBe(`${g}/v1beta/models/gemini-2.0-flash:generateContent`);
    expect(called('gemini', g, 'models/gemini-2.0-flash')).toBe(`${g}/v1beta/models/gemini-2.0-flash:generateContent`);
    expect(called('gemini', `${g}/v1beta/models/gemini-pro:generateContent`)).toBe(`${g}/v1beta/models/gemini-pro:generateContent`);
    expect(called('gemini', `${g}/v1beta/models/gemini-pro`, null, true)).toBe(`${g}/v1beta/models/gemini-pro:streamGenerateContent?alt=sse`);
  });

  it('http: the URL exactly as typed', () => {
    expect(called('http', 'https://bot.example.com/api/ask?x=1')).toBe('https://bot.example.com/api/ask?x=1');
  });
});

describe('URL, format and model that cannot name an endpoint', () => {
  const problem = (api_format: EndpointInput['api_format'], url: string, model: string | null = null) => endpointProblem({ api_format, url, model });
  it('asks for what is missing, in the user\'s words', () => {
    expect(problem('gemini', 'https://generativelanguage.googleapis.com/v1beta')).toMatchObject({ field: 'model' });
    expect(problem('gemini', 'https://generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent')).toBeNull();
    expect(problem('ollama', 'http://localhost:11434')).toMatchObject({ field: 'model' });
    expect(problem('azure-openai', 'https://res.openai.azure.com')).toMatchObject({ field: 'url' });
    expect(problem('azure-openai', 'https://res.openai.azure.com/openai/deployments/x')).toBeNull();
    expect(problem('openai', 'https://api.example.com/v1')).toBeNull();
  });
});
