import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';
import { takesTools, TargetTools, targetToolsProblem } from './target-tools';
import { endpointProblem } from './endpoint';
import { API_FORMAT_SPECS } from './formats';
import type { ApiFormat, HttpFormat } from './formats';
import { normalizeTags, tagsProblem } from './tags';

export const SCAN_MODES = ['browser', 'api'] as const;
export type ScanMode = (typeof SCAN_MODES)[number];

export interface BrowserSelectors {
  input_selector?: string;
  send_selector?: string;
  response_selector?: string;
}

/** A value its owner knows is behind the bot (a customer record, an internal code, a key prefix, the system prompt). */
export interface SensitiveValue {
  label: string;
  value: string;
}
/** What reads show of a sensitive value: its label and a keyed fingerprint, never the value. */
export interface SensitiveLabel {
  label: string;
  fingerprint: string;
}
export const MAX_SENSITIVE_VALUES = 50;

/**
 * The target as the log keeps it. `api_key_encrypted` and `headers_encrypted` (the custom request
 * headers as sealed JSON) are AES-256-GCM ciphertext, never the values. `url` is what the user
 * typed; the endpoint called follows from it (endpoint.ts).
 */
export interface TargetSettings {
  name: string;
  url: string;
  scan_mode: ScanMode;
  api_format: ApiFormat | null;
  api_key_encrypted: string | null;
  model: string | null;
  canaries: string[];
  browser: BrowserSelectors | null;
  http: HttpFormat | null;
  max_requests_per_second: number | null;
  /** absent from events recorded before custom headers existed: read as null */
  headers_encrypted?: string | null;
  /** the names of those headers, in clear so the api can say which are set (values stay sealed) */
  header_names?: string[];
  /** ask the API to stream its answers (they are read either way); absent before: false */
  stream?: boolean;
  /** the owner's sensitive values as sealed JSON ([{label, value}]); absent before they existed: none */
  sensitive_encrypted?: string | null;
  /** their labels and fingerprints, in clear so reads can say what is watched for */
  sensitive_labels?: SensitiveLabel[];
  /** normalised tags (tags.ts); absent from events recorded before tags existed: none */
  tags?: string[];
  /** a finished scan whose score fell by more than this many points since the previous one regressed; absent or null: only found-again weaknesses count */
  regression_threshold?: number | null;
  /** what its agent is offered in a scan (target/target-tools.ts); absent: decoy where the format takes tools */
  tools?: TargetTools;
}

export type TargetEvent =
  | DomainEvent<'TargetRegistered', { target_id: string; account_id: string; registered_at: string } & TargetSettings>
  | DomainEvent<'TargetUpdated', { target_id: string; account_id: string; updated_at: string; changes: Partial<TargetSettings> }>
  | DomainEvent<'TargetDeleted', { target_id: string; account_id: string; deleted_at: string }>;

export type TargetCommand =
  | { type: 'RegisterTarget'; target_id: string; account_id: string; settings: TargetSettings; now: string }
  | { type: 'UpdateTarget'; account_id: string; changes: Partial<TargetSettings>; now: string }
  | { type: 'DeleteTarget'; account_id: string; now: string };

export interface TargetState {
  id: string | null;
  account_id: string | null;
  deleted: boolean;
  settings: TargetSettings | null;
}

/** the rules a target's settings must meet together, as a DomainError naming the field (also run by the CLI before a scan) */
export function checkSettings(s: TargetSettings): void {
  if (s.scan_mode === 'api' && !s.api_format) {
    throw new DomainError('invalid', 'api_format is required when scan_mode is api.', { field: 'api_format' });
  }
  if (s.scan_mode === 'browser' && s.api_format) {
    throw new DomainError('invalid', 'api_format only applies when scan_mode is api.', { field: 'api_format' });
  }
  if (s.api_format === 'http' && !s.http) {
    throw new DomainError('invalid', 'http {body_template, response_path} is required when api_format is http.', { field: 'http' });
  }
  if (s.http && !s.http.body_template.includes('{{prompt}}') && !s.http.body_template.includes('{{messages}}')) {
    throw new DomainError('invalid', 'http.body_template must contain {{prompt}} or {{messages}}.', { field: 'http.body_template' });
  }
  if (s.scan_mode === 'browser' && (s.headers_encrypted || s.stream)) {
    throw new DomainError('invalid', 'headers and stream only apply when scan_mode is api.', { field: s.stream ? 'stream' : 'headers' });
  }
  const tagProblem = s.tags !== undefined ? tagsProblem(s.tags) : null;
  if (tagProblem) throw new DomainError('invalid', `${tagProblem}.`, { field: 'tags' });
  const threshold = s.regression_threshold;
  if (threshold !== undefined && threshold !== null && !(Number.isInteger(threshold) && threshold >= 1 && threshold <= 100)) {
    throw new DomainError('invalid', 'regression_threshold is a whole number of points from 1 to 100.', { field: 'regression_threshold' });
  }
  const toolsProblem = targetToolsProblem(s.tools);
  if (toolsProblem) throw new DomainError('invalid', toolsProblem.message, { field: toolsProblem.field });
  if (s.tools !== undefined && s.tools !== 'none' && !takesTools(s)) {
    throw new DomainError('invalid', `tools apply only to API formats that support tool calling (${API_FORMAT_SPECS.filter((f) => f.tools).map((f) => f.name).join(', ')}); say "none" or leave it out.`, { field: 'tools' });
  }
  const problem = s.scan_mode === 'api' ? endpointProblem(s) : null;
  if (problem) throw new DomainError('invalid', problem.message, { field: problem.field });
}

export const targetDecider: Decider<TargetCommand, TargetEvent, TargetState> = {
  initialState: () => ({ id: null, account_id: null, deleted: false, settings: null }),

  decide(command, state) {
    if (command.type === 'RegisterTarget') {
      if (state.id) return []; // the same id again is a retry of the same request
      checkSettings(command.settings);
      const settings = command.settings.tags ? { ...command.settings, tags: normalizeTags(command.settings.tags) } : command.settings;
      return [event('TargetRegistered', { target_id: command.target_id, account_id: command.account_id, registered_at: command.now, ...settings })];
    }
    // another account's target answers exactly like an absent one
    if (!state.id || state.deleted || state.account_id !== command.account_id || !state.settings) {
      throw new DomainError('not_found', 'Target not found.');
    }
    const target_id = state.id;
    switch (command.type) {
      case 'UpdateTarget': {
        const given = command.changes.tags && !tagsProblem(command.changes.tags) ? { ...command.changes, tags: normalizeTags(command.changes.tags) } : command.changes;
        const changes = Object.fromEntries(
          Object.entries(given).filter(([k, v]) => v !== undefined && JSON.stringify(v) !== JSON.stringify(state.settings![k as keyof TargetSettings])),
        ) as Partial<TargetSettings>;
        if (Object.keys(changes).length === 0) return [];
        const next = { ...state.settings, ...changes };
        if (changes.scan_mode === 'browser') {
          // what only an API has goes with the switch, unless the same command sets it
          if (command.changes.api_format === undefined) next.api_format = null;
          if (command.changes.headers_encrypted === undefined && next.headers_encrypted) {
            next.headers_encrypted = null;
            next.header_names = [];
          }
          if (command.changes.stream === undefined && next.stream) next.stream = false;
        }
        checkSettings(next);
        if (next.api_format !== state.settings.api_format) changes.api_format = next.api_format;
        if ((next.headers_encrypted ?? null) !== (state.settings.headers_encrypted ?? null)) {
          changes.headers_encrypted = next.headers_encrypted;
          changes.header_names = next.header_names ?? [];
        }
        if ((next.stream ?? false) !== (state.settings.stream ?? false)) changes.stream = next.stream;
        // the sealed form differs on every seal: the fingerprints tell whether the values changed
        if (changes.sensitive_encrypted !== undefined && JSON.stringify(next.sensitive_labels ?? []) === JSON.stringify(state.settings.sensitive_labels ?? [])) {
          delete changes.sensitive_encrypted;
          delete changes.sensitive_labels;
          if (Object.keys(changes).length === 0) return [];
        }
        return [event('TargetUpdated', { target_id, account_id: command.account_id, updated_at: command.now, changes })];
      }
      case 'DeleteTarget':
        return [event('TargetDeleted', { target_id, account_id: command.account_id, deleted_at: command.now })];
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'TargetRegistered': {
        const { target_id, account_id, registered_at: _at, ...settings } = e.data;
        return { id: target_id, account_id, deleted: false, settings };
      }
      case 'TargetUpdated':
        return { ...state, settings: { ...state.settings!, ...e.data.changes } };
      case 'TargetDeleted':
        return { ...state, deleted: true };
      default:
        return state;
    }
  },
};
