import { upcastEvent } from './upcasts';

describe('upcastEvent: a stored event of any type, read in its current shape', () => {
  const v1 = { id: 'v1', probe_id: 'pi-001', category: 'LLM01:2025', technique: 'roleplay', converters: [] };

  it('reads a finding of version 1 as a weakness with the fingerprint, how and instances its shape implied', () => {
    const read = upcastEvent({ type: 'VulnerabilityFound', data: { scan_id: 's1', vulnerability: v1 } });
    expect(read.data).toEqual({
      scan_id: 's1',
      vulnerability: { ...v1, fingerprint: 'pi-001:LLM01:2025', how: 'Sent as written (roleplay).', variants: [], probes: ['pi-001'], conversations: 1, attempt_ids: [], supersedes: [], exposures: [] },
    });
  });

  it('gives back the very event when it is current, or of a type never reshaped', () => {
    const current = upcastEvent({ type: 'VulnerabilityFound', data: { scan_id: 's1', vulnerability: v1 } });
    expect(upcastEvent(current)).toBe(current);
    const other = { type: 'ScanStarted', data: { scan_id: 's1' } };
    expect(upcastEvent(other)).toBe(other);
  });
});
