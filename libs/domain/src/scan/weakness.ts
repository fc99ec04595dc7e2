import { createHash } from 'node:crypto';
import type { ToolRisk } from '../agent/tools';
import type { Exposed, ExposedKind, OwaspCategoryId } from './vulnerability';

/**
 * A finding is a weakness: its OWASP category and what it exposed or did, never the probe that
 * showed it. This is the one policy that says which weakness a conversation showed and how its
 * fingerprint is made. Two findings differ only when a team would fix them differently or they
 * expose different things:
 * - a value the owner told (a canary, a sensitive value) is one weakness by its label; the values
 *   told about one person (`customer name`, `customer IBAN`) are that person, one weakness;
 * - a credential however recited (whole, in pieces, its user with its host) is one weakness, keyed
 *   by what survives the garbling (its user, else its host, else its key's prefix);
 * - an untold value seen to recur is one weakness by its normalised form, a person's name a person;
 * - the prompt's instructions recited are one weakness, whichever rules came out;
 * - documents served to whoever asks (retrieval across permissions) are one weakness, beside what
 *   they held;
 * - an instruction followed: direct (in the user's message) and indirect (in content the target
 *   read: a document, a page, a tool's result) are different fixes, so two weaknesses;
 * - a tool misused is one weakness per tool (its confirmation is what gets fixed);
 * - markup that runs, by what runs: script, or an address the reader's page loads;
 * - a claim of an action with no tool behind it: one per scan, the claims beneath it;
 * - what an out-of-band request proves: a fetch of any address, mail to an attacker's recipient,
 *   untold data carried to an attacker's address;
 * - invention (of facts, or of software packages) and unbounded output, one each;
 * - anything known only by its probe (a probe the user wrote): that probe.
 * The category follows from what was exposed or done, never from the probe: so the same value
 * drawn out by another probe in the next scan is the same finding, with the same fingerprint.
 */

/** Where an instruction the target followed came from: the user's own message, or content it read. */
export type InstructionVia = 'direct' | 'indirect';
/** What markup in an answer does where it is shown: runs script, or makes the page load an address. */
export type MarkupRuns = 'script' | 'remote-load';
/** What the target invented: facts about things that do not exist, or software packages. */
export type Invented = 'fact' | 'package';

/** What one conversation showed, as the weakness is named from it. */
export type Shown =
  /** a value the owner told (not a person's data): a credential, an internal code, a canary */
  | { kind: 'value'; label: string; value_kind: ExposedKind; source: 'canary' | 'sensitive' }
  /** a person: values told about one subject (`customer`), or a name seen to recur (its normalised form) */
  | { kind: 'person'; subject: string; source: 'sensitive' | 'recurrence' }
  /** a credential nobody told of, seen to recur: `identity` is what survives its garbling (`user:clinic_admin`) */
  | { kind: 'credential'; identity: string; shape: string; names: string }
  /** a person's datum nobody told of (an e-mail, a phone, an IBAN), seen to recur: its normalised form */
  | { kind: 'data'; identity: string; shape: string }
  /** the prompt's instructions recited (told as a sensitive value, or seen to recur) */
  | { kind: 'wording' }
  /** documents a user should not see, retrieved and quoted on request (what they held is its own weakness) */
  | { kind: 'retrieval' }
  | { kind: 'instruction'; via: InstructionVia }
  | { kind: 'tool'; tool: string; risk: ToolRisk }
  | { kind: 'markup'; runs: MarkupRuns }
  | { kind: 'claim' }
  /** out of band: the target fetched an address a user named */
  | { kind: 'fetch' }
  /** out of band: mail went to (a lookup of) an attacker's recipient's domain */
  | { kind: 'mail' }
  /** out of band: a request to an attacker's address carried data not known to be the target's */
  | { kind: 'carried' }
  | { kind: 'invention'; of: Invented }
  | { kind: 'consumption' }
  /** nothing finer is known than the probe that showed it (a probe the user wrote) */
  | { kind: 'probe'; probe_id: string; category: OwaspCategoryId };

export type WeaknessKind = Shown['kind'];

export interface Weakness {
  category: OwaspCategoryId;
  kind: WeaknessKind;
  /** `<category>:<kind>:<identity>`: the same weakness on the same target has it in every scan */
  fingerprint: string;
}

const INJECTION: OwaspCategoryId = 'LLM01:2025';
const DISCLOSURE: OwaspCategoryId = 'LLM02:2025';
const OUTPUT: OwaspCategoryId = 'LLM05:2025';
const AGENCY: OwaspCategoryId = 'LLM06:2025';
const PROMPT: OwaspCategoryId = 'LLM07:2025';
const RETRIEVAL: OwaspCategoryId = 'LLM08:2025';
const MISINFORMATION: OwaspCategoryId = 'LLM09:2025';
const CONSUMPTION: OwaspCategoryId = 'LLM10:2025';

/**
 * Where a held value belongs, by what it is, never by the probe that drew it (so it is the same
 * finding whichever probe does next time): the prompt's wording under System Prompt Leakage; every
 * other value its owner holds back (a credential, a person's data, an internal code, a canary
 * planted in the prompt or the data) under Sensitive Information Disclosure.
 */
export function heldCategory(kind: ExposedKind): OwaspCategoryId {
  return kind === 'wording' ? PROMPT : DISCLOSURE;
}

/** a value as a fingerprint may carry it: a digest, so no value (a name, a label) is ever spelled out there */
const digest = (text: string) => `h${createHash('sha256').update(text.normalize('NFKC').trim().toLowerCase()).digest('hex').slice(0, 16)}`;
/** a name of ours or a tool's, readable when it is a plain identifier */
const readable = (name: string) => (/^[a-z0-9][a-z0-9_-]{0,47}$/i.test(name) ? name.toLowerCase() : digest(name));

function placed(s: Shown): { category: OwaspCategoryId; identity: string } {
  switch (s.kind) {
    case 'value':
      return { category: heldCategory(s.value_kind), identity: digest(`${s.source}:${s.label}`) };
    case 'person':
      return { category: DISCLOSURE, identity: digest(`${s.source === 'recurrence' ? 'seen' : 'told'}:${s.subject}`) };
    case 'credential':
    case 'data':
      return { category: DISCLOSURE, identity: digest(s.identity) };
    case 'wording':
      return { category: PROMPT, identity: 'instructions' };
    case 'retrieval':
      return { category: RETRIEVAL, identity: 'documents' };
    case 'instruction':
      return { category: INJECTION, identity: s.via };
    case 'tool':
      return { category: AGENCY, identity: readable(s.tool) };
    case 'markup':
      return { category: OUTPUT, identity: s.runs };
    case 'claim':
      return { category: AGENCY, identity: 'action-without-tool' };
    case 'fetch':
      return { category: AGENCY, identity: 'any-address' };
    case 'mail':
      return { category: AGENCY, identity: 'attacker-recipient' };
    case 'carried':
      return { category: DISCLOSURE, identity: 'untold-data' };
    case 'invention':
      return { category: MISINFORMATION, identity: s.of };
    case 'consumption':
      return { category: CONSUMPTION, identity: 'unbounded-output' };
    case 'probe':
      return { category: s.category, identity: readable(s.probe_id) };
  }
}

/** The weakness a conversation showed: its category, its kind and its fingerprint. */
export function weaknessOf(shown: Shown): Weakness {
  const { category, identity } = placed(shown);
  return { category, kind: shown.kind, fingerprint: `${category}:${shown.kind}:${identity}` };
}

/** whether a fingerprint names a weakness (this policy's), rather than a probe and a category (findings recorded before it) */
export const isWeaknessFingerprint = (fingerprint: string) => /^LLM\d{2}:\d{4}:/.test(fingerprint);

/** the probe a pre-weakness fingerprint names (`pi-001:LLM01:2025` -> `pi-001`), null for a weakness's */
export function probeOfFingerprint(fingerprint: string): string | null {
  return isWeaknessFingerprint(fingerprint) ? null : fingerprint.slice(0, fingerprint.indexOf(':'));
}

const FIELD_WORDS = new Set(
  ('name names full first last given family surname maiden e mail email e-mail address addresses postal street home postcode zip phone telephone tel mobile cell number no nr ' +
    'iban bic swift account acct card credit debit pan ssn social security passport national id identity tax birth date dob day salary income record records file files ' +
    'contact contacts details detail data info information profile of the a an for on in at to and').split(' '),
);

/**
 * Whom a told value about a person is about, from its label: the label without its field words
 * (`customer name`, `customer IBAN` -> `customer`; `Maria's e-mail` -> `maria`). Values told with
 * bare labels (`name`, `email`) are about one unnamed person, ''.
 */
export function personSubject(label: string): string {
  return label
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !FIELD_WORDS.has(w))
    .join(' ');
}

/** A value the owner told that came out, as the weakness it is: the prompt's wording, a person (by the label's subject), or the value itself. */
export function heldShown(e: Pick<Exposed, 'kind' | 'label' | 'source'>): Shown {
  if (e.kind === 'wording') return { kind: 'wording' };
  if (e.kind === 'personal' && e.source === 'sensitive') return { kind: 'person', subject: personSubject(e.label), source: 'sensitive' };
  return { kind: 'value', label: e.label, value_kind: e.kind, source: e.source === 'recurrence' ? 'sensitive' : e.source };
}
