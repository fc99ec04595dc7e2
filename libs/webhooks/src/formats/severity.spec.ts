import { ALL, failed, partial, started } from '../../test/fixtures';
import { eventSeverity } from '../envelope';
import { renderCef } from './cef';
import { toOcsf } from './ocsf/ocsf';
import { renderSyslog } from './syslog';

const product = { name: 'Gauntlet', vendor_name: 'Gauntlet', version: '0.1.0' };

describe('one severity model across OCSF, CEF and syslog', () => {
  // each format's scale read back into the shared one
  const fromOcsf: Record<number, string> = { 1: 'info', 2: 'low', 3: 'medium', 4: 'high', 5: 'critical' };
  const fromCef: Record<string, string> = { '1': 'info', '3': 'low', '5': 'medium', '8': 'high', '10': 'critical' };
  const fromSyslog: Record<number, string> = { 6: 'info', 5: 'low', 4: 'medium', 3: 'high', 2: 'critical' };

  it.each(ALL.map((e) => [e.event, e] as const))('%s has the same severity in all three', (_name, envelope) => {
    const expected = eventSeverity(envelope);
    expect(fromOcsf[toOcsf(envelope, product).severity_id as number]).toBe(expected);
    expect(fromCef[renderCef(envelope, { vendor: 'Gauntlet', product: 'Gauntlet', version: '0.1.0' }).replace(/\\\\/g, '\0').split(/(?<!\\)\|/)[6]]).toBe(expected);
    expect(fromSyslog[Number(/^<(\d+)>/.exec(renderSyslog(envelope))![1]) & 7]).toBe(expected);
  });

  it('a failed scan is at least medium, a partial one at least low, whatever it had found', () => {
    expect(eventSeverity(failed)).toBe('medium');
    expect(eventSeverity({ ...failed, data: { ...failed.data, critical: 1 } })).toBe('critical');
    expect(eventSeverity({ ...partial, data: { ...partial.data, critical: 0, high: 0, medium: 0, low: 0 } })).toBe('low');
    expect(eventSeverity(started)).toBe('info');
  });
});
