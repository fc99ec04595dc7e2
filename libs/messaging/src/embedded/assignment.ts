export interface GroupMember {
  id: number;
  topics: readonly string[];
}

export interface PartitionAssignment {
  topic: string;
  partition: number;
  member: number;
}

/**
 * Which member of a consumer group reads each partition: per topic, partitions go round robin to
 * the members subscribed to it, in the order they joined (lowest id first), so a membership
 * change moves as few partitions as it can and every partition has exactly one reader.
 */
export function assignPartitions(members: readonly GroupMember[], partitionCounts: ReadonlyMap<string, number>): PartitionAssignment[] {
  const ordered = [...members].sort((a, b) => a.id - b.id);
  const topics = [...new Set(ordered.flatMap((m) => m.topics))].sort();
  const assignments: PartitionAssignment[] = [];
  for (const topic of topics) {
    const readers = ordered.filter((m) => m.topics.includes(topic));
    const count = partitionCounts.get(topic) ?? 0;
    for (let partition = 0; partition < count; partition++) {
      assignments.push({ topic, partition, member: readers[partition % readers.length].id });
    }
  }
  return assignments;
}
