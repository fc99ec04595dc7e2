import type { Profile } from '@gauntlet/domain';
import { SpendMeter } from '../budget/meter';
import { ChatDriverOptions, ChatTarget, createChatDriver } from '../drivers/create-chat-driver';
import { RECON_MESSAGE } from '../engine/attempts';
import { PROFILE_PLANS } from '../engine/types';

/** What one preflight request measured: the answer's time, and the pace a scan of the profile starts at. */
export interface MeasuredPace {
  latency_ms: number;
  requests_per_second: number;
  source: 'measured';
}

/**
 * The target's pace, measured with one request and never more: the scan's harmless first message,
 * timed, sent through a driver whose meter admits one request (a retry it would want is refused, and
 * the measure fails instead). A scan of `profile` starts with its first concurrency of conversations
 * in flight, so that many answers come back in the time one takes; its pacing may widen that later.
 */
export async function measurePace(target: ChatTarget, profile: Profile, options: Pick<ChatDriverOptions, 'allowPrivate' | 'chromiumPath' | 'timeoutMs'>): Promise<MeasuredPace> {
  const driver = createChatDriver(target, { ...options, retry: { attempts: 1 }, meter: new SpendMeter({ max_requests: 1 }) });
  try {
    const conversation = await driver.openConversation();
    const started = performance.now();
    await conversation.send(RECON_MESSAGE);
    const latency_ms = Math.max(1, Math.round(performance.now() - started));
    await conversation.close();
    return { latency_ms, requests_per_second: Math.round((PROFILE_PLANS[profile].concurrency * 1000 * 1000) / latency_ms) / 1000, source: 'measured' };
  } finally {
    await driver.close();
  }
}
