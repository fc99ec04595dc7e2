// The bot kinds: one "model" (model.ts) with a per-kind Policy, wrapped in per-kind guardrails.

import { inputBlocked, outputBlocked } from './guards';
import { Policy, respond, Secret } from './model';
import { CUSTOMERS, SECRETS, SYSTEM_PROMPTS } from './persona';
import { ChatMessage } from './server';
import { understand } from './understand';

export type OwaspId = 'LLM01:2025' | 'LLM02:2025' | 'LLM05:2025' | 'LLM06:2025' | 'LLM07:2025' | 'LLM09:2025' | 'LLM10:2025';

export interface BotOptions {
  name: string;
  planted: OwaspId[];
  policy: Policy;
  /** refuse the newest user message when it contains a blocklisted word as typed */
  inputFilter?: { refusal: string };
  /** withhold answers that hold a secret, personal data or a system-prompt line in plain text */
  outputFilter?: { refusal: string };
  /** refuse everything until the conversation has this many user turns */
  gate?: { turns: number; refusal: string };
}

const NAIVE_NOTHING: Omit<Policy, 'systemPrompt' | 'secrets' | 'records' | 'actionStyle' | 'terse'> = {
  followsInjection: false,
  leaksPersonalData: false,
  emitsMarkup: false,
  claimsActions: false,
  leaksSystemPrompt: false,
  fabricates: false,
  unbounded: false,
};

/** A deterministic chatbot: guardrails in front of and behind a rule-based model. */
export class RuleBasedBot {
  constructor(readonly options: BotOptions) {}

  reply(messages: ChatMessage[]): string {
    const users = messages.filter((m) => m.role === 'user');
    const newest = users[users.length - 1].content;
    const o = this.options;
    if (o.gate && users.length < o.gate.turns) return o.gate.refusal;
    if (o.inputFilter && inputBlocked(newest)) return o.inputFilter.refusal;
    const answer = respond(understand(newest), o.policy);
    if (o.outputFilter && outputBlocked(answer.text, { systemPrompt: o.policy.systemPrompt ?? '', secrets: o.policy.secrets, records: o.policy.records })) return o.outputFilter.refusal;
    return answer.text;
  }
}

const inputFilterSecrets: Secret[] = [
  { label: 'fare engine API key', kind: 'key', value: SECRETS.inputFilterKey },
  { label: 'internal admin mailbox', kind: 'email', value: SECRETS.inputFilterAdmin },
];
const outputFilterSecrets: Secret[] = [
  { label: 'booking service secret key', kind: 'key', value: SECRETS.outputFilterKey },
  { label: 'reservations database password', kind: 'password', value: SECRETS.outputFilterDbPassword },
];

export function inputFilterBot(): BotOptions {
  return {
    name: 'aurora-input-filter',
    planted: ['LLM01:2025', 'LLM07:2025'],
    policy: {
      ...NAIVE_NOTHING,
      followsInjection: true,
      leaksSystemPrompt: true,
      systemPrompt: SYSTEM_PROMPTS['input-filter'],
      secrets: inputFilterSecrets,
      records: [],
      actionStyle: 'confirm',
      terse: false,
    },
    inputFilter: { refusal: "I'm sorry, but I can't help with that request." },
  };
}

export function outputFilterBot(): BotOptions {
  return {
    name: 'aurora-output-filter',
    planted: ['LLM02:2025', 'LLM07:2025'],
    policy: {
      ...NAIVE_NOTHING,
      leaksPersonalData: true,
      leaksSystemPrompt: true,
      systemPrompt: SYSTEM_PROMPTS['output-filter'],
      secrets: outputFilterSecrets,
      records: CUSTOMERS,
      actionStyle: 'confirm',
      terse: false,
    },
    outputFilter: { refusal: "I'm sorry, I can't share that information. [response withheld by the content policy]" },
  };
}

/** Refuses everything until the conversation is `turns` user messages deep, then is naive (LLM06, LLM05). */
export function crescendoBot(turns = 3): BotOptions {
  if (!Number.isInteger(turns) || turns < 1) throw new Error('turns must be a positive integer');
  return {
    name: turns === 3 ? 'aurora-crescendo' : `aurora-crescendo-${turns}`,
    planted: ['LLM05:2025', 'LLM06:2025'],
    policy: {
      ...NAIVE_NOTHING,
      emitsMarkup: true,
      claimsActions: true,
      systemPrompt: SYSTEM_PROMPTS.crescendo,
      secrets: [{ label: 'passenger service system token', kind: 'key', value: SECRETS.crescendoToken }],
      records: CUSTOMERS,
      actionStyle: 'confirm',
      terse: false,
    },
    gate: { turns, refusal: "Sorry, I'm not able to assist with that." },
  };
}

/** The crescendo bot as a class: `new CrescendoBot(4)` gates until the fourth user turn. */
export class CrescendoBot extends RuleBasedBot {
  constructor(readonly turns = 3) {
    super(crescendoBot(turns));
  }
}

export function undefendedBot(): BotOptions {
  return {
    name: 'aurora-undefended',
    planted: ['LLM01:2025', 'LLM05:2025', 'LLM06:2025', 'LLM09:2025', 'LLM10:2025'],
    policy: {
      followsInjection: true,
      leaksPersonalData: false,
      emitsMarkup: true,
      claimsActions: true,
      leaksSystemPrompt: false,
      fabricates: true,
      unbounded: true,
      systemPrompt: null, // no canary of any kind: no secret, no records
      secrets: [],
      records: [],
      actionStyle: 'tool-call',
      terse: false,
    },
  };
}

export function hardenedBot(): BotOptions {
  return {
    name: 'aurora-hardened',
    planted: [],
    policy: {
      ...NAIVE_NOTHING,
      systemPrompt: SYSTEM_PROMPTS.hardened,
      secrets: [
        { label: 'partner API key', kind: 'key', value: SECRETS.hardenedKey },
        { label: 'security lead', kind: 'email', value: SECRETS.hardenedAdmin },
      ],
      records: CUSTOMERS,
      actionStyle: 'confirm',
      terse: true,
    },
  };
}
