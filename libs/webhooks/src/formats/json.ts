import type { WebhookEnvelope } from '../envelope';

/** format_type json: the contract's envelope {event, timestamp, data}, plus its stable `id`. */
export function renderJson(envelope: WebhookEnvelope): string {
  return JSON.stringify({ id: envelope.id, event: envelope.event, timestamp: envelope.timestamp, data: envelope.data });
}
