// How each format a webhook (scan events or agent-monitor alerts) can be sent in reads in a select.
import type { WebhookFormat } from '../api/enums';
import type { Option } from './forms';

const LABELS: Readonly<Record<WebhookFormat, string>> = {
  json: 'JSON (the Gauntlet envelope)',
  ocsf: 'OCSF 1.8 (JSON)',
  cef: 'CEF (ArcSight)',
  syslog: 'Syslog (RFC 5424)',
};

export const WEBHOOK_FORMAT_OPTIONS: readonly Option[] = Object.entries(LABELS).map(([value, label]) => ({ value, label }));
