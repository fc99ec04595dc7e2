import type { Phase } from '@gauntlet/domain';
import { ScanRecorder } from './scan-recorder';
import { ScanSink } from './types';

function sink(failOn?: Phase) {
  const log: string[] = [];
  let open = 0;
  const s: ScanSink = {
    enterPhase: async (phase, progress) => {
      open++;
      if (open > 1) log.push('overlap');
      await new Promise((r) => setImmediate(r));
      open--;
      if (phase === failOn) throw new Error('cancelled');
      log.push(`${phase}@${progress}`);
    },
    recordAttempt: async (a, progress) => void log.push(`${a.attempt_id}@${progress}`),
    recordVulnerability: async (v) => void log.push(v.id),
  };
  return { s, log };
}

describe('scan recorder', () => {
  it('writes one at a time, in order; a phase carries the progress as of its write', async () => {
    const { s, log } = sink();
    const recorder = new ScanRecorder(s, 4, () => undefined);
    void recorder.enter('recon');
    void recorder.recordAttempt({ attempt_id: 'a1' } as never, recorder.advance());
    void recorder.enter('probe');
    await recorder.flushed();
    expect(log).toEqual(['recon@25', 'a1@25', 'probe@25']);
  });

  it('progress only grows and stays under 100 until the scan ends', () => {
    const recorder = new ScanRecorder(sink().s, 4, () => undefined);
    expect(recorder.advance(2)).toBe(50);
    recorder.settle(1);
    expect(recorder.advance(0)).toBe(50);
    recorder.reach(10);
    expect(recorder.advance(0)).toBe(99);
  });

  it('the first failed write stops the scan and every write after it fails the same way', async () => {
    const { s, log } = sink('probe');
    let stopped = 0;
    const recorder = new ScanRecorder(s, 10, () => stopped++);
    await recorder.enter('recon');
    await expect(recorder.enter('probe')).rejects.toThrow('cancelled');
    await expect(recorder.recordAttempt({ attempt_id: 'a2' } as never, 50)).rejects.toThrow('cancelled');
    expect(stopped).toBe(1);
    expect(recorder.error).toBeInstanceOf(Error);
    expect(log).toEqual(['recon@0']);
  });
});
