// Severity and scan status as badges, and what a finished scan is: the values are the service's own (api/enums).
import { severities, type ScanStatus, type Severity } from '../api/enums';
import { h } from './dom';

export { severities };

export function severityBadge(sev: string | null | undefined): HTMLSpanElement {
  return h('span', { class: `badge sev-${severities.includes(sev as Severity) ? sev : 'unknown'}` }, sev ?? 'unknown');
}

const STATUS_LABEL: Readonly<Record<ScanStatus, string>> = { pending: 'Pending', running: 'Running', completed: 'Completed', completed_partial: 'Partial', failed: 'Failed', cancelled: 'Cancelled' };
export function statusBadge(status: string): HTMLSpanElement {
  return h('span', { class: `badge status-${String(status).replace(/[^a-z_]/g, '')}` }, STATUS_LABEL[status as ScanStatus] ?? String(status));
}

export const TERMINAL: readonly ScanStatus[] = ['completed', 'completed_partial', 'failed', 'cancelled'];
export const isTerminal = (status: string): boolean => TERMINAL.includes(status as ScanStatus);

