import type { Bus, DeliveredMessage, MessageHandler } from './bus';
import { namespaced } from './namespaced-bus';

/** records what reaches the adapter, and lets the test deliver a message back */
function recordingBus() {
  const calls: unknown[][] = [];
  let handler: MessageHandler | null = null;
  const bus: Bus = {
    ensureTopics: async (t) => void calls.push(['ensureTopics', t]),
    publish: async (t, m) => void calls.push(['publish', t, m]),
    consume: async (t, o, h) => {
      calls.push(['consume', t, o]);
      handler = h;
      return { stop: async () => undefined };
    },
    ping: async () => undefined,
    close: async () => undefined,
  };
  return { bus, calls, deliver: (m: DeliveredMessage) => handler!(m) };
}

describe('NamespacedBus', () => {
  it('prefixes topics and groups going in and strips the prefix coming out', async () => {
    const inner = recordingBus();
    const bus = namespaced(inner.bus, 'staging.');
    await bus.ensureTopics(['gauntlet.scan-jobs']);
    await bus.publish('gauntlet.scan-jobs', [{ key: 'k', value: 'v' }]);
    const seen: string[] = [];
    await bus.consume(['gauntlet.scan-jobs'], { group: 'scanners' }, async (m) => void seen.push(m.topic));
    await inner.deliver({ topic: 'staging.gauntlet.scan-jobs', partition: 0, offset: '0', timestamp: 0, key: 'k', value: 'v' });
    expect(inner.calls).toEqual([
      ['ensureTopics', ['staging.gauntlet.scan-jobs']],
      ['publish', 'staging.gauntlet.scan-jobs', [{ key: 'k', value: 'v' }]],
      ['consume', ['staging.gauntlet.scan-jobs'], { group: 'staging.scanners' }],
    ]);
    expect(seen).toEqual(['gauntlet.scan-jobs']);
  });

  it('is the bus itself when there is no namespace, and refuses names Kafka would refuse', () => {
    const inner = recordingBus();
    expect(namespaced(inner.bus, '')).toBe(inner.bus);
    expect(() => namespaced(inner.bus, 'bad name/')).toThrow(/namespace/);
  });
});
