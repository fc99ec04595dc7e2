import { spec } from '@gauntlet/testing';
import { targetDecider, TargetEvent, TargetSettings } from './target';

const now = '2026-11-21T10:00:00.000Z';
const apiSettings: TargetSettings = {
  name: 'support bot', url: 'https://bot.example.com/v1/chat/completions', scan_mode: 'api', api_format: 'openai',
  api_key_encrypted: 'v1.sealed', model: 'gpt-x', canaries: ['CANARY-1'], browser: null, http: null, max_requests_per_second: 5,
};
const registered: TargetEvent = { type: 'TargetRegistered', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', registered_at: now, ...apiSettings } };

describe('target decider', () => {
  it('registers a target', () => {
    spec(targetDecider).given([]).when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: apiSettings, now }).then([registered]);
  });

  it('requires api_format for api targets, and refuses it for browser targets', () => {
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, api_format: null }, now })
      .thenFails('invalid', /api_format is required/);
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, scan_mode: 'browser' }, now })
      .thenFails('invalid', /only applies/);
  });

  it('requires an http body template with a prompt placeholder for api_format http', () => {
    const http = { ...apiSettings, api_format: 'http' as const };
    spec(targetDecider).given([]).when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: http, now }).thenFails('invalid', /http/);
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...http, http: { body_template: '{"q":"x"}', response_path: 'a' } }, now })
      .thenFails('invalid', /placeholder|\{\{prompt\}\}/);
  });

  it('records only the fields that really change', () => {
    spec(targetDecider)
      .given([registered])
      .when({ type: 'UpdateTarget', account_id: 'a1', changes: { name: 'renamed', url: apiSettings.url }, now })
      .then([{ type: 'TargetUpdated', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', updated_at: now, changes: { name: 'renamed' } } }]);
    spec(targetDecider).given([registered]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { name: 'support bot' }, now }).then([]);
  });

  it('switching an api target to browser mode clears its api_format', () => {
    const [e] = spec(targetDecider).given([registered]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { scan_mode: 'browser' }, now }).thenEvents();
    expect(e).toMatchObject({ type: 'TargetUpdated', data: { changes: { scan_mode: 'browser', api_format: null } } });
  });

  it('refuses a model API whose endpoint cannot be told from url, api_format and model', () => {
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, api_format: 'ollama', url: 'http://localhost:11434', model: null }, now })
      .thenFails('invalid', /ollama needs model/);
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, api_format: 'gemini', url: 'https://generativelanguage.googleapis.com/v1beta', model: null }, now })
      .thenFails('invalid', /gemini needs model/);
  });

  it('keeps custom headers and streaming to api targets', () => {
    spec(targetDecider)
      .given([])
      .when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, scan_mode: 'browser', api_format: null, headers_encrypted: 'v1.sealed-headers' }, now })
      .thenFails('invalid', /headers and stream only apply/);
  });

  it('switching to browser mode drops what only an API has: format, headers, streaming', () => {
    const withHeaders: TargetEvent = { ...registered, data: { ...registered.data, headers_encrypted: 'v1.sealed-headers', header_names: ['x-gw'], stream: true } } as TargetEvent;
    const [e] = spec(targetDecider).given([withHeaders]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { scan_mode: 'browser' }, now }).thenEvents();
    expect(e).toMatchObject({ data: { changes: { scan_mode: 'browser', api_format: null, headers_encrypted: null, header_names: [], stream: false } } });
  });

  it("answers another account's target as not found", () => {
    spec(targetDecider).given([registered]).when({ type: 'UpdateTarget', account_id: 'other', changes: { name: 'x' }, now }).thenFails('not_found');
    spec(targetDecider).given([registered]).when({ type: 'DeleteTarget', account_id: 'other', now }).thenFails('not_found');
  });

  it('deletes a target, after which it is gone', () => {
    const deleted: TargetEvent = { type: 'TargetDeleted', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', deleted_at: now } };
    spec(targetDecider).given([registered]).when({ type: 'DeleteTarget', account_id: 'a1', now }).then([deleted]);
    spec(targetDecider).given([registered, deleted]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { name: 'x' }, now }).thenFails('not_found');
  });

  it('keeps tags normalised and refuses what is not a tag or threshold', () => {
    const [e] = spec(targetDecider).given([]).when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, tags: ['Prod', ' prod', 'team:web'] }, now }).thenEvents();
    expect(e.data).toMatchObject({ tags: ['prod', 'team:web'] });
    spec(targetDecider).given([]).when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, tags: ['no spaces'] }, now }).thenFails('invalid', /not a tag/);
    spec(targetDecider).given([registered]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { regression_threshold: 0 }, now }).thenFails('invalid', /regression_threshold/);
    const [u] = spec(targetDecider).given([registered]).when({ type: 'UpdateTarget', account_id: 'a1', changes: { tags: ['EU'], regression_threshold: 10 }, now }).thenEvents();
    expect(u.data).toMatchObject({ changes: { tags: ['eu'], regression_threshold: 10 } });
  });

  describe('tools', () => {
    const register = (settings: Partial<TargetSettings>) => spec(targetDecider).given([]).when({ type: 'RegisterTarget', target_id: 't1', account_id: 'a1', settings: { ...apiSettings, ...settings }, now });
    const tool = { name: 'refund_order', description: 'Refunds an order.', parameters: { type: 'object', properties: { order_id: { type: 'string' } } }, risk: 'financial' as const };

    it('given an API format with tool calling, when registered with decoy, none, definitions or an MCP server, then they are recorded', () => {
      for (const tools of ['decoy', 'none', [tool], { mcp: { url: 'https://mcp.example.com/mcp', headers_encrypted: 'v1.sealed', header_names: ['Authorization'] } }] as const) {
        register({ tools: tools as TargetSettings['tools'] }).then([{ ...registered, data: { ...registered.data, tools: tools as TargetSettings['tools'] } }]);
      }
    });

    it('given a chat page or the custom http format, when offered tools, then it is refused (none is fine)', () => {
      register({ scan_mode: 'browser', api_format: null, tools: 'decoy' }).thenFails('invalid', /tools apply only to API formats/);
      register({ api_format: 'http', http: { body_template: '{"q": "{{prompt}}"}', response_path: 'a' }, tools: [tool] }).thenFails('invalid', /tools apply only/);
      register({ scan_mode: 'browser', api_format: null, tools: 'none' }).then([{ ...registered, data: { ...registered.data, scan_mode: 'browser', api_format: null, tools: 'none' } }]);
    });

    it('given definitions that break the rules, when registered, then the field at fault is named', () => {
      const fails = (tools: unknown, field: RegExp) => register({ tools: tools as never }).thenFails('invalid', field);
      fails([tool, tool], /tools\[1\]\.name .* given twice/);
      fails([{ ...tool, name: '1 bad name' }], /tools\[0\]\.name/);
      fails([{ ...tool, risk: 'harmless' }], /tools\[0\]\.risk is one of read, write, financial, destructive, exfiltration/);
      fails([{ ...tool, parameters: { type: 'string' } }], /tools\[0\]\.parameters is the JSON Schema of an object/);
      fails([{ ...tool, extra: 1 }], /tools\[0\]\.extra is not a field/);
      fails(Array.from({ length: 33 }, (_, i) => ({ ...tool, name: `t${i}` })), /at most 32 tools/);
      fails([], /at least one/);
      fails({ mcp: { url: 'ftp://mcp.example.com' } }, /tools\.mcp\.url/);
      fails('all', /tools is "decoy", "none"/);
    });
  });
});
