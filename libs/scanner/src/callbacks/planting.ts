import type { OutOfBandHit, Turn } from '@gauntlet/domain';
import type { Probe } from '../probes/probe';
import { CallbackStage, MAX_HOST_NAME, mintToken } from './token';

/** Where the engine hears of hits: those recorded for one scan so far (its stream's OutOfBandHit events). */
export interface CallbackInbox {
  hits(scanId: string): Promise<OutOfBandHit[]>;
}

/** What a scan needs to plant addresses and hear of requests to them. */
export interface CallbackSetup {
  /** the public address of the listener (CALLBACK_BASE_URL), tokens are planted under it */
  baseUrl: string;
  /**
   * CALLBACK_DOMAIN: a domain whose names (wildcard DNS, or delegated to the DNS listener) reach the
   * listener; tokens are planted as labels under it (`{{callback:domain}}`). Absent: probes that
   * plant a domain do not run.
   */
  domain?: string;
  /** callbackKey(SECRETS_KEY): the listener verifies with the same */
  key: Buffer;
  inbox: CallbackInbox;
  /** how long the engine waits, before analysis, for requests still on their way (only when it planted) */
  graceMs?: number;
  /** how often at most a running scan reads its hits for the live count, besides right after an attempt that planted (CallbackTally) */
  tallyMs?: number;
}

export const DEFAULT_CALLBACK_GRACE_MS = 4_000;

/**
 * `{{callback}}`: a page for the target to read; `{{callback:render}}`: an address for its answer
 * to carry; `{{callback:domain}}`: a host name under CALLBACK_DOMAIN, for an e-mail address's domain.
 */
const PLACEHOLDER = /\{\{callback(?::(render|domain))?\}\}/g;
const DOMAIN_PLACEHOLDER = '{{callback:domain}}';

/** whether a probe plants addresses (and so runs only where a listener hears them) */
export const plantsCallbacks = (probe: { readonly turns: readonly string[] }): boolean => probe.turns.some((t) => t.includes('{{callback'));

/** whether a probe can run with this listener: one that plants a domain needs CALLBACK_DOMAIN as well */
export const canPlant = (probe: { readonly turns: readonly string[] }, setup: Pick<CallbackSetup, 'domain'> | null): boolean =>
  !plantsCallbacks(probe) || (setup !== null && (Boolean(setup.domain) || !probe.turns.some((t) => t.includes(DOMAIN_PLACEHOLDER))));

/** An address one attempt planted, and where. */
export interface PlantedAddress {
  stage: CallbackStage;
  /** the address as planted: a URL, or a host name (`domain`) */
  url: string;
  /** index of the user message (0-based, among the attempt's turns sent) that carried it */
  message: number;
}

/** An attempt that planted addresses, as delivered: what the finding shows when a request comes. */
export interface PlantedAttempt {
  attemptId: string;
  probe: Probe;
  technique: string;
  converters: string[];
  phase: 'probe' | 'amplify';
  addresses: PlantedAddress[];
  /** the conversation as recorded (set once it was delivered) */
  turns: Turn[];
  at: Date;
}

/**
 * The addresses a scan planted, one set per attempt: each placeholder in an attempt's turns
 * becomes `<CALLBACK_BASE_URL>/<token>` (or `<token labels>.<CALLBACK_DOMAIN>`), the token naming this scan and this attempt (so a request
 * to it, whenever and wherever it is heard, is that attempt's proof). Bounded by the scan's
 * attempts.
 */
export class CallbackPlanting {
  private readonly planted = new Map<string, PlantedAttempt>();

  constructor(readonly setup: CallbackSetup, private readonly scanId: string) {}

  get attempts(): readonly PlantedAttempt[] {
    return [...this.planted.values()];
  }

  attempt(attemptId: string): PlantedAttempt | undefined {
    return this.planted.get(attemptId);
  }

  /**
   * The turns as this attempt sends them, each placeholder its own address; turns without one are
   * returned as they are (a converter that encoded the placeholder planted nothing).
   */
  plant(attemptId: string, turns: readonly string[], about: Pick<PlantedAttempt, 'probe' | 'technique' | 'converters' | 'phase'>, now: Date): string[] {
    const addresses: PlantedAddress[] = [];
    const base = this.setup.baseUrl.replace(/\/+$/, '');
    const out = turns.map((turn, message) =>
      turn.replace(PLACEHOLDER, (all, kind: 'render' | 'domain' | undefined) => {
        const stage: CallbackStage = kind ?? 'fetch';
        const claim = { scanId: this.scanId, attemptId, stage };
        if (stage === 'domain' && !this.setup.domain) return all;
        const url = stage === 'domain' ? `${mintToken(this.setup.key, claim, 'host')}.${this.setup.domain}` : `${base}/${mintToken(this.setup.key, claim)}`;
        // ids are UUIDs and CALLBACK_DOMAIN is bounded: a name past DNS's limit is a bug, not an address
        if (stage === 'domain' && url.length > MAX_HOST_NAME) throw new RangeError(`a planted name is longer than ${MAX_HOST_NAME} characters`);
        addresses.push({ stage, url, message });
        return url;
      }),
    );
    if (addresses.length) this.planted.set(attemptId, { attemptId, ...about, addresses, turns: out.map((content) => ({ role: 'user' as const, content })), at: now });
    return out;
  }

  /** the conversation an attempt that planted had, as recorded */
  delivered(attemptId: string, turns: Turn[]): void {
    const planted = this.planted.get(attemptId);
    if (planted) planted.turns = turns;
  }
}

