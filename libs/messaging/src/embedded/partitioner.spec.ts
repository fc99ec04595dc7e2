import { partitionForKey } from './partitioner';

describe('partitionForKey', () => {
  it('is stable for a key and stays within the partition count', () => {
    for (const key of ['', 'scan-1', 'target-ü', 'x'.repeat(500)]) {
      const p = partitionForKey(key, 6);
      expect(p).toBe(partitionForKey(key, 6));
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(6);
    }
  });

  it('is FNV-1a: known vectors', () => {
    // FNV-1a 32 of "a" is 0xe40c292c, of "foobar" 0xbf9cf968
    expect(partitionForKey('a', 0xffffffff)).toBe(0xe40c292c % 0xffffffff);
    expect(partitionForKey('foobar', 1000)).toBe(0xbf9cf968 % 1000);
  });

  it('spreads keys over every partition', () => {
    const used = new Set(Array.from({ length: 60 }, (_, i) => partitionForKey(`scan-${i}`, 6)));
    expect(used.size).toBe(6);
  });
});
