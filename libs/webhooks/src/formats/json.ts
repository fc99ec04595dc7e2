import type { WebhookEnvelope } from '../envelope';
import { siemFormat } from './siem-format';

/** format_type json: the contract's envelope {event, timestamp, data}, plus its stable `id`. */
export function renderJson(envelope: WebhookEnvelope): string {
  return JSON.stringify({ id: envelope.id, event: envelope.event, timestamp: envelope.timestamp, data: envelope.data });
}

export const json = siemFormat({ name: 'json', label: 'JSON (the Gauntlet envelope)', contentType: 'application/json', render: renderJson });
