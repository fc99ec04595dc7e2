/**
 * The partition of a key: FNV-1a (32 bit) over its UTF-8 bytes, modulo the partition count.
 * Stable across processes and releases, which keeps a key's messages in one partition forever.
 */
export function partitionForKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
