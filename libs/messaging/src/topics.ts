/** Kafka's rule for topic names, applied by every adapter so a name that works embedded works on Kafka. */
export function topicNameProblem(topic: string): string | null {
  if (typeof topic !== 'string' || topic.length === 0) return 'a topic name must be a non-empty string';
  if (topic.length > 249) return `topic name "${topic.slice(0, 40)}..." is longer than 249 characters`;
  if (topic === '.' || topic === '..') return `"${topic}" is not a valid topic name`;
  if (!/^[A-Za-z0-9._-]+$/.test(topic)) return `topic name "${topic}" may contain only letters, digits, ".", "_" and "-"`;
  return null;
}

export function assertTopicNames(topics: string[]): void {
  for (const topic of topics) {
    const problem = topicNameProblem(topic);
    if (problem) throw new TypeError(problem);
  }
}

/** A message must be keyed and textual; notBefore, when present, a time in ms since the epoch. */
export function messageProblem(message: { key: unknown; value: unknown; headers?: unknown; notBefore?: unknown }): string | null {
  if (typeof message.key !== 'string') return 'message key must be a string';
  if (typeof message.value !== 'string') return 'message value must be a string';
  if (message.headers !== undefined) {
    if (message.headers === null || typeof message.headers !== 'object') return 'message headers must be an object of strings';
    for (const [name, value] of Object.entries(message.headers)) {
      if (typeof value !== 'string') return `message header "${name}" must be a string`;
    }
  }
  if (message.notBefore !== undefined && !Number.isFinite(message.notBefore)) return 'message notBefore must be ms since the epoch';
  return null;
}

/** What both adapters check before publishing: a valid topic name and well-formed messages. */
export function assertPublishable(topic: string, messages: readonly { key: unknown; value: unknown; headers?: unknown; notBefore?: unknown }[]): void {
  assertTopicNames([topic]);
  for (const m of messages) {
    const problem = messageProblem(m);
    if (problem) throw new TypeError(problem);
  }
}
