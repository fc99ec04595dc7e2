import { TargetHealth } from './target-health';

describe('target health', () => {
  it('given errors in a row under the limit, the scan goes on; an answer between them starts the count over', () => {
    const stop = new AbortController();
    const health = new TargetHealth(stop, 3);
    health.failed('HTTP 500');
    health.failed('HTTP 500');
    health.answered();
    health.failed('HTTP 500');
    health.failed('HTTP 500');
    expect(health.stopped).toBe(false);
    expect(health.unavailable).toBeNull();
    expect(stop.signal.aborted).toBe(false);
  });

  it('given as many errors in a row as the limit, gives up with the last one and stops everything in flight', () => {
    const stop = new AbortController();
    const health = new TargetHealth(stop, 3);
    ['HTTP 500', 'HTTP 502', 'timed out'].forEach((m) => health.failed(m));
    expect(health.unavailable).toBe('target failed 3 attempts in a row (last: timed out)');
    expect(health.stopped).toBe(true);
    expect(stop.signal.aborted).toBe(true);
  });

  it('given a target gone silent, gives up; the first reason stands', () => {
    const stop = new AbortController();
    const health = new TargetHealth(stop, 1);
    health.lost('no answer within 5000 ms');
    health.failed('HTTP 500');
    expect(health.unavailable).toBe('target stopped answering: no answer within 5000 ms');
    expect(stop.signal.aborted).toBe(true);
  });

  it('given the scan stopped from outside, counts as stopped with no reason against the target', () => {
    const stop = new AbortController();
    const health = new TargetHealth(stop, 5);
    stop.abort();
    expect(health.stopped).toBe(true);
    expect(health.unavailable).toBeNull();
  });
});
