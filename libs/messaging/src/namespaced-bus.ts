import type { Bus, ConsumeOptions, Consumer, Message, MessageHandler } from './bus';

/**
 * One deployment's topics and consumer groups on a shared broker: every name gets the prefix on
 * the way in and loses it on the way out, so the code keeps using plain names (BUS_NAMESPACE).
 */
export class NamespacedBus implements Bus {
  constructor(private readonly inner: Bus, private readonly prefix: string) {
    if (!/^[A-Za-z0-9._-]*$/.test(prefix)) throw new TypeError('a bus namespace may contain only letters, digits, ".", "_" and "-"');
  }

  private name(topic: string) {
    return `${this.prefix}${topic}`;
  }

  ensureTopics(topics: string[]): Promise<void> {
    return this.inner.ensureTopics(topics.map((t) => this.name(t)));
  }

  publish(topic: string, messages: Message[]): Promise<void> {
    return this.inner.publish(this.name(topic), messages);
  }

  consume(topics: string[], options: ConsumeOptions, handler: MessageHandler): Promise<Consumer> {
    return this.inner.consume(topics.map((t) => this.name(t)), { ...options, group: this.name(options.group) }, (m) =>
      handler({ ...m, topic: m.topic.slice(this.prefix.length) }),
    );
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export function namespaced(bus: Bus, prefix: string): Bus {
  return prefix ? new NamespacedBus(bus, prefix) : bus;
}
