// How each format a webhook (scan events or agent-monitor alerts) can be sent in reads in a select:
// the formats and their labels as the API document has them, from the service's SIEM format registry.
import { webhookFormatLabels, webhookFormats } from '../api/enums';
import type { Option } from './forms';

export const WEBHOOK_FORMAT_OPTIONS: readonly Option[] = webhookFormats.map((value) => ({ value, label: webhookFormatLabels[value] }));
