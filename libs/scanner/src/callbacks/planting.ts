import type { OutOfBandHit, Turn } from '@gauntlet/domain';
import type { Probe } from '../probes/probe';
import { CallbackStage, mintToken } from './token';

/** Where the engine hears of hits: those recorded for one scan so far (its stream's OutOfBandHit events). */
export interface CallbackInbox {
  hits(scanId: string): Promise<OutOfBandHit[]>;
}

/** What a scan needs to plant addresses and hear of requests to them. */
export interface CallbackSetup {
  /** the public address of the listener (CALLBACK_BASE_URL), tokens are planted under it */
  baseUrl: string;
  /** callbackKey(SECRETS_KEY): the listener verifies with the same */
  key: Buffer;
  inbox: CallbackInbox;
  /** how long the engine waits, before analysis, for requests still on their way (only when it planted) */
  graceMs?: number;
}

export const DEFAULT_CALLBACK_GRACE_MS = 4_000;

/** `{{callback}}`: a page for the target to read; `{{callback:render}}`: an address for its answer to carry */
const PLACEHOLDER = /\{\{callback(?::(render))?\}\}/g;

/** whether a probe plants addresses (and so runs only where a listener hears them) */
export const plantsCallbacks = (probe: { readonly turns: readonly string[] }): boolean => probe.turns.some((t) => t.includes('{{callback'));

/** An address one attempt planted, and where. */
export interface PlantedAddress {
  stage: CallbackStage;
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
 * becomes `<CALLBACK_BASE_URL>/<token>`, the token naming this scan and this attempt (so a request
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
      turn.replace(PLACEHOLDER, (_all, render: string | undefined) => {
        const stage: CallbackStage = render ? 'render' : 'fetch';
        const url = `${base}/${mintToken(this.setup.key, { scanId: this.scanId, attemptId, stage })}`;
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
