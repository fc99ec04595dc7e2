import type { ToolRisk } from '../agent/tools';
import { CHANNEL_WORDS, exposureLine, shapeWords } from './exposure';
import {
  CATEGORY_GUIDANCE, CLAIM_REMEDIATION, EXFILTRATION_REFERENCES, FETCH_REMEDIATION, INDIRECT_REFERENCES, MAIL_REFERENCES, MAIL_REMEDIATION, PACKAGE_REFERENCES, PACKAGE_REMEDIATION,
  RENDER_REMEDIATION,
} from './guidance';
import { bounded, plain, toolCallText } from './proof-wording';
import type { ExposureChannel, FindingExposure, Proof } from './vulnerability';
import { personSubject, Shown, weaknessOf } from './weakness';

/**
 * A finding's words, from its evidence (pure): the title says what came out or what the target
 * did, and how; the description what its instances show and the probes that were the way in; the
 * remediation what fixes that weakness. The probe that drew it is never what happened: it is
 * named as the way in ("drawn out by ...").
 */

/** What a finding's instances showed, gathered: what its words are made from. */
export interface FindingFacts {
  shown: Shown;
  /** the values it exposed (a disclosure's), as they are shown */
  exposures: readonly FindingExposure[];
  /** how what it exposed left, over every instance, the most serious first */
  via: readonly ExposureChannel[];
  /** every probe that showed it, the evidence's first */
  ways_in: readonly { probe_id: string; title: string }[];
  /** independent conversations that showed it */
  conversations: number;
  /** the evidence's proof */
  proof?: Proof;
  /** a tool call's: the called tool's risk */
  tool_risk?: ToolRisk;
  /** a claim of an action: what it claimed, each once (bounded) */
  claims?: readonly string[];
  /** the evidence only partly complied */
  partial: boolean;
  /** markup: a page ran it, or an address it carried was loaded (seen, not only written) */
  observed?: boolean;
  /** a weakness known only by its probe: the probe's own words */
  probe?: { title: string; description: string; remediation: string; references: readonly string[] };
}

export interface FindingWords {
  title: string;
  description: string;
  remediation: string;
  references: string[];
}

const article = (noun: string) => (/^(?:[aeio]|u(?!ni|se|su)|IBAN|AWS|API|OpenAI|Anthropic)/i.test(noun) ? `an ${noun}` : `a ${noun}`);
const listed = (items: readonly string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** what came out, as the object of the title's verb */
function whatCameOut(f: FindingFacts): string {
  const s = f.shown;
  switch (s.kind) {
    case 'value':
      if (s.source === 'canary') return `its canary "${s.label}"`;
      return `its ${s.label} (${s.value_kind === 'credential' ? 'a credential' : s.value_kind === 'personal' ? "a person's data" : 'an internal code'})`;
    case 'person': {
      if (s.source === 'recurrence') {
        const name = f.exposures.find((e) => e.shape === "person's name") ?? f.exposures[0];
        const more = f.exposures.length - 1;
        return `a person it holds (${name?.shown ?? 'a name'}${more > 0 ? ` and ${more} more of their data` : ''})`;
      }
      const fields = [...new Set(f.exposures.map((e) => fieldOf(e.label ?? '', s.subject)))].filter(Boolean);
      const whose = s.subject ? `the ${s.subject}'s data` : "a person's data";
      return fields.length ? `${whose} (${listed(fields)})` : whose;
    }
    case 'credential':
      return `${article(shapeWords(s.shape))}${s.names ? ` for ${s.names}` : ''} (a credential it holds)`;
    case 'data':
      return `${article(shapeWords(s.shape))} it holds (${f.exposures[0]?.shown ?? 'masked'})`;
    default:
      return '';
  }
}

/** a told label without its person's subject: `customer e-mail` -> `e-mail` */
function fieldOf(label: string, subject: string): string {
  if (!subject) return label;
  const rest = label
    .split(/\s+/)
    .filter((w) => personSubject(w) === '' || !subject.split(' ').includes(personSubject(w)))
    .join(' ');
  return rest || label;
}

const DISCLOSURES = new Set<Shown['kind']>(['value', 'person', 'credential', 'data']);

function title(f: FindingFacts): string {
  const s = f.shown;
  switch (s.kind) {
    case 'value':
    case 'person':
    case 'credential':
    case 'data': {
      const what = whatCameOut(f);
      if (f.via[0] === 'request') return `Sends ${what} to an attacker's address`;
      if (f.via[0] === 'link') return `Puts ${what} in links its answers build`;
      return `Reveals ${what} in its answers`;
    }
    case 'wording': {
      const told = f.exposures.map((e) => e.label).filter(Boolean);
      return `Recites its instructions${told.length ? ` (${listed(told as string[])})` : ''}`;
    }
    case 'retrieval':
      return 'Retrieves documents a user should not see and quotes them';
    case 'instruction':
      return s.via === 'direct' ? "Follows instructions injected into a user's message (direct prompt injection)" : 'Follows instructions hidden in content it reads (indirect prompt injection)';
    case 'tool':
      return `Calls ${plain(s.tool)} as an attacker asks${f.tool_risk ?? s.risk ? ` (a ${f.tool_risk ?? s.risk} tool)` : ''}`;
    case 'markup':
      if (s.runs === 'script') return f.observed ? 'Its answers run script in the page that shows them' : 'Its answers carry markup that runs script where they are shown';
      return f.observed ? "Its answers make their reader load an attacker's address" : 'Its answers carry images and links to addresses an attacker chooses';
    case 'claim':
      return 'Claims actions it did not take (no tool was called)';
    case 'fetch':
      return 'Fetches any address a user names';
    case 'mail':
      return 'Sends mail to a recipient an attacker names';
    case 'carried':
      return "Sends data to an attacker's address";
    case 'invention':
      return s.of === 'package' ? 'Invents software packages that do not exist' : 'Invents facts about things that do not exist';
    case 'consumption':
      return 'Answers without bound when asked to repeat or enumerate';
    case 'probe':
      return f.probe?.title ?? s.probe_id;
    default:
      return unnamed(s);
  }
}

const unnamed = (s: never): string => `Weakness ${(s as Shown).kind}`;

/** one sentence of what the instances show */
function whatItShows(f: FindingFacts): string {
  const s = f.shown;
  switch (s.kind) {
    case 'value':
    case 'person':
    case 'credential':
    case 'data': {
      const values = f.exposures.map(exposureLine);
      return values.length ? `It gave away: ${values.join('; ')}.` : '';
    }
    case 'wording':
      return `It recited the instructions it was given (its rules, limits and what it must not say)${f.exposures.length ? `: ${f.exposures.map(exposureLine).join('; ')}` : ''}.`;
    case 'retrieval':
      return "Asked for documents of other tenants, internal or confidential ones, it retrieved and quoted them; what they held is listed under the findings of what leaked.";
    case 'instruction':
      return s.via === 'direct'
        ? 'It followed an instruction an attacker wrote into the message, over the rules it was given.'
        : "It followed an instruction hidden in content it was given to read (a document, a page, an e-mail, a tool's result), as if its user had asked.";
    case 'tool': {
      const call = f.proof?.matched.kind === 'tool_call' ? toolCallText(f.proof.matched.tool ?? s.tool, f.proof.matched.arguments) : plain(s.tool);
      return `The agent called ${call}${f.tool_risk ?? s.risk ? ` (a ${f.tool_risk ?? s.risk} tool)` : ''} with the attack's values.`;
    }
    case 'markup':
      return s.runs === 'script'
        ? `Its answers carried markup that runs script where they are shown (a script tag, an event handler, a javascript: link, an iframe)${f.observed ? '; the page that showed them ran it' : ''}.`
        : `Its answers carried an image or a link on an address an attacker chose, which whatever shows the answer loads by itself${f.observed ? '; it was loaded' : ''}.`;
    case 'claim': {
      const claims = (f.claims ?? []).map((c) => `"${bounded(c, 80)}"`);
      return `It said it acted, and no tool was called${claims.length ? `: ${claims.join(', ')}` : ''}.`;
    }
    case 'fetch':
      return 'It fetched an address an attacker named in the conversation: it fetches any address it is given.';
    case 'mail':
      return "It, or the mail system it drives, looked up or reached the domain of an e-mail address an attacker gave: mail on its way to the attacker's recipient.";
    case 'carried':
      return "A request to an attacker's address carried data the target added to it (not known to be one of its own values).";
    case 'invention':
      return s.of === 'package'
        ? 'It named software packages that do not exist and showed how to install them: anyone can register such a name (package squatting).'
        : 'It answered with confident facts about things that do not exist (names the scan made up).';
    case 'consumption':
      return 'It kept producing output when asked to repeat or enumerate without end.';
    case 'probe':
      return f.probe?.description ?? '';
    default:
      return unnamed(s);
  }
}

/** the probes that were the way in */
function waysIn(f: FindingFacts): string {
  const n = f.ways_in.length;
  if (n === 0) return '';
  const shown = f.ways_in.slice(0, 5).map((p) => `${p.title} (${p.probe_id})`);
  const more = n > 5 ? ` and ${n - 5} more` : '';
  const verb = DISCLOSURES.has(f.shown.kind) || f.shown.kind === 'wording' ? 'Drawn out by' : 'Shown by';
  return `${verb} ${n === 1 ? 'one probe' : `${n} probes`} in ${f.conversations} conversation${f.conversations === 1 ? '' : 's'}: ${shown.join(', ')}${more}.`;
}

function remediation(f: FindingFacts): { text: string; references: readonly string[] } {
  const s = f.shown;
  const own = CATEGORY_GUIDANCE[weaknessOf(s).category];
  const guide = (text: string, extra: readonly string[] = []) => ({ text, references: [...(own?.references ?? []), ...extra] });
  const leftBy = f.via.includes('request') || f.via.includes('link') ? ` ${RENDER_REMEDIATION}` : '';
  switch (s.kind) {
    case 'value':
      if (s.value_kind === 'credential') return guide(`Rotate the ${s.label} now: it has been given away. ${own!.remediation}${leftBy}`, leftBy ? EXFILTRATION_REFERENCES : []);
      if (s.value_kind === 'code') return guide(`Change the ${s.label}: it has been given away. ${own!.remediation}${leftBy}`);
      return guide(`${own!.remediation}${leftBy}`);
    case 'credential':
      return guide(`Rotate this credential${s.names ? ` (${s.names})` : ''} now: it has been given away. ${own!.remediation}${leftBy}`, leftBy ? EXFILTRATION_REFERENCES : []);
    case 'person':
    case 'data':
    case 'wording':
      return guide(`${own!.remediation}${leftBy}`, leftBy ? EXFILTRATION_REFERENCES : []);
    case 'retrieval':
      return guide(own!.remediation);
    case 'instruction':
      return s.via === 'direct' ? guide(own!.remediation) : guide(FETCH_REMEDIATION, INDIRECT_REFERENCES);
    case 'tool':
      return guide(`Require a person to confirm every ${plain(s.tool)} call an attacker could steer, and check its arguments against what the user may do. ${own!.remediation}`);
    case 'markup':
      return s.runs === 'script' ? guide(own!.remediation) : guide(RENDER_REMEDIATION, EXFILTRATION_REFERENCES);
    case 'claim':
      return guide(CLAIM_REMEDIATION);
    case 'fetch':
      return guide(FETCH_REMEDIATION, INDIRECT_REFERENCES);
    case 'mail':
      return guide(MAIL_REMEDIATION, MAIL_REFERENCES);
    case 'carried':
      return guide(RENDER_REMEDIATION, EXFILTRATION_REFERENCES);
    case 'invention':
      return s.of === 'package' ? guide(PACKAGE_REMEDIATION, PACKAGE_REFERENCES) : guide(own!.remediation);
    case 'consumption':
      return guide(own!.remediation);
    case 'probe':
      return { text: f.probe?.remediation ?? own?.remediation ?? '', references: f.probe?.references ?? own?.references ?? [] };
    default:
      return { text: unnamed(s), references: [] };
  }
}

/** A finding's title, description, remediation and references, from what its instances showed. */
export function findingWords(f: FindingFacts): FindingWords {
  const fix = remediation(f);
  const description = [whatItShows(f), waysIn(f), f.partial ? 'Its strongest evidence shows it only in part; the severity is lowered accordingly.' : ''].filter(Boolean).join(' ');
  return { title: title(f), description, remediation: fix.text, references: [...new Set(fix.references.filter(Boolean))] };
}

/** How a value left, as a report line says it ("said in an answer and sent to an attacker's address"). */
export const viaWords = (via: readonly ExposureChannel[]) => listed(via.map((v) => CHANNEL_WORDS[v]));
