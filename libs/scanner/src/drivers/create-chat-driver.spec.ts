import { TargetProtocolError } from '../chat-driver';
import { ApiFormatChatDriver } from './api/api-format-driver';
import { BrowserChatDriver } from './browser/browser-chat-driver';
import { ChatTarget, createChatDriver, targetEndpoint } from './create-chat-driver';

const target: ChatTarget = {
  scan_mode: 'api', api_format: 'openai', url: 'https://bot.example.com/v1/chat/completions', api_key: 'k', model: 'm',
  http: null, browser: null, max_requests_per_second: 2,
};
const options = { allowPrivate: false };

describe('createChatDriver', () => {
  it('picks the driver for the scan mode and API format, without connecting', async () => {
    const drivers = [
      createChatDriver(target, options),
      createChatDriver({ ...target, api_format: 'anthropic' }, options),
      createChatDriver({ ...target, api_format: 'http', http: { body_template: '{"q":"{{prompt}}"}', response_path: 'a' } }, options),
      createChatDriver({ ...target, scan_mode: 'browser', api_format: null, browser: { input_selector: '#q' } }, options),
      createChatDriver({ ...target, api_format: 'azure-openai' }, options),
      createChatDriver({ ...target, api_format: 'openai-responses' }, options),
      createChatDriver({ ...target, api_format: 'ollama' }, options),
      createChatDriver({ ...target, api_format: 'gemini' }, options),
    ];
    // every API is the one driver speaking the format the target names
    expect(drivers.map((d) => (d instanceof ApiFormatChatDriver ? d.format.name : d.constructor))).toEqual([
      'openai', 'anthropic', 'http', BrowserChatDriver, 'azure-openai', 'openai-responses', 'ollama', 'gemini',
    ]);
    await Promise.all(drivers.map((d) => d.close()));
  });

  it('calls the endpoint the typed URL means; a chat page as typed', () => {
    expect(targetEndpoint({ ...target, url: 'https://bot.example.com/v1' })).toBe('https://bot.example.com/v1/chat/completions');
    expect(targetEndpoint({ ...target, scan_mode: 'browser', url: 'https://bot.example.com/v1' })).toBe('https://bot.example.com/v1');
  });

  it('refuses an api target it cannot speak to', () => {
    expect(() => createChatDriver({ ...target, api_format: null }, options)).toThrow(TargetProtocolError);
    expect(() => createChatDriver({ ...target, api_format: 'http', http: null }, options)).toThrow(/body_template/);
    expect(() => createChatDriver({ ...target, api_format: 'ollama', model: null }, options)).toThrow('api_format ollama needs model');
  });
});
