export type WakeReason = 'published' | 'control' | 'timeout';

/**
 * Where a partition reader waits: until a timeout, a control event (new owner, close), or, when
 * it asked for it, a publish on its topic. Timers are cleared on wake so nothing keeps the
 * process alive after close.
 */
export class Wakeup {
  private waiters = new Set<{ onPublish: boolean; resolve: (reason: WakeReason) => void; timer: NodeJS.Timeout }>();

  wait(ms: number, onPublish: boolean): Promise<WakeReason> {
    return new Promise((resolve) => {
      const waiter = {
        onPublish,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve('timeout');
        }, Math.max(0, ms)),
      };
      this.waiters.add(waiter);
    });
  }

  published(): void {
    this.wake('published');
  }

  control(): void {
    this.wake('control');
  }

  private wake(reason: 'published' | 'control'): void {
    for (const waiter of this.waiters) {
      if (reason === 'published' && !waiter.onPublish) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(reason);
    }
  }
}
