import { ALL } from '../../test/fixtures';
import { renderJson } from './json';

describe('json format', () => {
  it.each(ALL.map((e) => [e.event, e] as const))('%s: the contract envelope, read back with JSON.parse', (_name, envelope) => {
    const parsed = JSON.parse(renderJson(envelope));
    expect(Object.keys(parsed)).toEqual(['id', 'event', 'timestamp', 'data']);
    expect(parsed).toEqual({ id: envelope.id, event: envelope.event, timestamp: envelope.timestamp, data: envelope.data });
  });

  it('carries every data field the contract lists', () => {
    const { data } = JSON.parse(renderJson(ALL[1]));
    for (const f of ['scan_id', 'target_id', 'target_name', 'status', 'security_score', 'security_grade', 'total_findings', 'critical', 'high', 'medium', 'low', 'report_url']) {
      expect(data).toHaveProperty(f);
    }
  });
});
