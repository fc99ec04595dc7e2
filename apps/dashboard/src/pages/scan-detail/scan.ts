import { answer, ApiError, client, type Schemas } from '../../api/client';
import type { ScanPhase } from '../../api/enums';

// What every part of the scan page reads: the scan as the API has it, and how to read it again.
export type Scan = Schemas['ScanDetailView'];
export type Status = Schemas['ScanStatusView'];
export type Finding = Schemas['VulnerabilityView'];

export const PHASE_LABEL: Readonly<Record<ScanPhase, string>> = { queued: 'Queued', recon: 'Recon', probe: 'Probe', amplify: 'Amplify', analyze: 'Analyze', report: 'Report', done: 'Done' };

/** the HTTP status of a failed call, when the API answered one */
export const status = (err: unknown) => (err instanceof ApiError ? err.status : undefined);
export const readScan = (id: string) => answer(client.GET('/api/scans/{id}', { params: { path: { id } } }));
