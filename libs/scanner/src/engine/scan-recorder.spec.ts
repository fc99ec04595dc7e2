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
    expect(recorder.advance(10)).toBe(99);
    expect(recorder.advance(0)).toBe(99);
  });

  it('given budgeted work that is not needed, when the plan shrinks, the bar spreads its rest over what is left instead of jumping', () => {
    // 10 probes, 60 requests of escalation budget, 30 of amplification, 2 to finish
    const recorder = new ScanRecorder(sink().s, 102, () => undefined);
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push(recorder.advance());
    for (let i = 0; i < 5; i++) seen.push(recorder.advance(2)); // escalation stops after 10 of its 60
    recorder.replan(8 + 2); // amplification planned 8 requests
    for (let i = 0; i < 8; i++) seen.push(recorder.advance());
    recorder.replan(2);
    seen.push(recorder.advance(), recorder.advance());
    const steps = seen.map((p, i) => p - (seen[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(25); // never half the bar at once
    expect(steps.every((s) => s >= 0)).toBe(true);
    expect(seen[seen.length - 1]).toBe(99);
  });

  it('the running count of findings goes with the next attempt and never goes down', async () => {
    const counts: (number | undefined)[] = [];
    const proofs: string[][] = [];
    const s: ScanSink = {
      enterPhase: async () => {}, recordAttempt: async (_a, _p, facts) => void (counts.push(facts?.findingsSoFar), proofs.push((facts?.proved ?? []).map((p) => p.fingerprint))), recordVulnerability: async () => {},
    };
    const recorder = new ScanRecorder(s, 10, () => undefined);
    const weakness = (fingerprint: string) => ({ fingerprint, probe_id: 'p', category: 'LLM01:2025' as const, category_name: 'Prompt Injection', title: 't' });
    void recorder.recordAttempt({ attempt_id: 'a1' } as never, recorder.advance());
    recorder.proved(2, [weakness('f1'), weakness('f2')]);
    void recorder.recordAttempt({ attempt_id: 'a2' } as never, recorder.advance());
    recorder.proved(1);
    void recorder.recordAttempt({ attempt_id: 'a3' } as never, recorder.advance());
    await recorder.flushed();
    expect(counts).toEqual([0, 2, 2]);
    // the weaknesses go with the attempt after their proof, once
    expect(proofs).toEqual([[], ['f1', 'f2'], []]);
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

describe('the time left', () => {
  it("is the planned requests still to send over the requests a second the target takes, recorded with each attempt", async () => {
    const calls: unknown[][] = [];
    const s: ScanSink = { enterPhase: async () => undefined, recordAttempt: async (...args) => void calls.push(args), recordVulnerability: async () => undefined };
    let perSecond: number | null = null;
    const recorder = new ScanRecorder(s, 100, () => undefined, () => perSecond);
    // not known before the target has answered: nothing recorded
    expect(recorder.secondsLeft()).toBeNull();
    await recorder.recordAttempt({ attempt_id: 'a1' } as never, recorder.advance(10));
    expect(calls[0][2]).not.toHaveProperty('secondsLeft');
    perSecond = 2;
    expect(recorder.secondsLeft()).toBe(45);
    await recorder.recordAttempt({ attempt_id: 'a2' } as never, recorder.advance(10));
    expect(calls[1][2]).toMatchObject({ secondsLeft: 40 });
    // the plan turned out smaller: what is really left counts
    recorder.replan(6);
    expect(recorder.secondsLeft()).toBe(3);
  });

  it('carries the requests sent so far, as the budget counts them, with each attempt', async () => {
    const calls: unknown[][] = [];
    const s: ScanSink = { enterPhase: async () => undefined, recordAttempt: async (...args) => void calls.push(args), recordVulnerability: async () => undefined };
    let sent = 0;
    const recorder = new ScanRecorder(s, 100, () => undefined, () => null, () => sent);
    sent = 7;
    await recorder.recordAttempt({ attempt_id: 'a1' } as never, recorder.advance());
    expect(calls[0][2]).toMatchObject({ requestsSent: 7 });
  });
});
