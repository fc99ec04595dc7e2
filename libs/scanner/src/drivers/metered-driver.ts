import { estimateTokens } from '@gauntlet/domain';
import type { AgentSetup, ChatDriver, Conversation } from '../chat-driver';
import type { SpendMeter } from '../budget/meter';

/**
 * A driver whose every message is counted before it goes out: a chat page takes one message a
 * request, typed whole. (A model API's driver counts at its transport instead, where retries and
 * an agent's tool rounds are requests too.) The page's answer is read whole, then counted.
 */
export function meteredDriver(driver: ChatDriver, meter: SpendMeter): ChatDriver {
  const metered: ChatDriver = {
    openConversation: async (agent?: AgentSetup) => meteredConversation(await driver.openConversation(agent), meter),
    close: () => driver.close(),
  };
  if (driver.concurrency) metered.concurrency = () => driver.concurrency!();
  if (driver.throughput) metered.throughput = () => driver.throughput!();
  if (driver.answerTime) metered.answerTime = () => driver.answerTime!();
  return metered;
}

function meteredConversation(conversation: Conversation, meter: SpendMeter): Conversation {
  const metered: Conversation = {
    async send(message, options) {
      const outgoing = meter.send(estimateTokens(message));
      try {
        const answer = await conversation.send(message, options);
        outgoing.received(estimateTokens(answer));
        return answer;
      } catch (e) {
        outgoing.failed();
        throw e;
      }
    },
    close: () => conversation.close(),
  };
  if (conversation.observe) metered.observe = () => conversation.observe!();
  if (conversation.actions) metered.actions = () => conversation.actions!();
  if (conversation.screenshot) metered.screenshot = () => conversation.screenshot!();
  return metered;
}
