/**
 * The Bus port: durable topics with consumer groups, shaped after Kafka so kafkajs fits it.
 * Delivery is at-least-once: an offset is committed only after the handler resolved, so a
 * handler must be idempotent (dedupe key or revision guard).
 */

export interface Message {
  /** ordering key: messages with one key are delivered in order (Kafka partition key) */
  key: string;
  value: string;
  headers?: Record<string, string>;
  /**
   * ms since epoch before which no consumer may receive the message: how the 1 / 5 / 30 minute
   * webhook retries wait durably (on Kafka: one retry topic per delay, consumed when due).
   */
  notBefore?: number;
}

export interface DeliveredMessage extends Message {
  topic: string;
  partition: number;
  offset: string;
  /** ms since epoch when the message was published */
  timestamp: number;
}

export interface ConsumeOptions {
  /** consumer group: members of one group share the topic's messages */
  group: string;
  /** where a new group starts: 'earliest' (default) or 'latest' */
  from?: 'earliest' | 'latest';
}

export interface Consumer {
  stop(): Promise<void>;
}

export type MessageHandler = (message: DeliveredMessage) => Promise<void>;

export interface Bus {
  /** creates the topics that do not exist yet (idempotent) */
  ensureTopics(topics: string[]): Promise<void>;
  /** resolves once the messages are durable */
  publish(topic: string, messages: Message[]): Promise<void>;
  /**
   * Handlers for one partition run one at a time, in order. A handler that throws is retried
   * (with backoff) and the offset is not committed past it: nothing is skipped.
   */
  consume(topics: string[], options: ConsumeOptions, handler: MessageHandler): Promise<Consumer>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
