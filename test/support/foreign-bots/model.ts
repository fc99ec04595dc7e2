// The rule-based "model" behind every foreign bot. A Policy says which weaknesses it has; the
// same reading of the request (understand.ts) feeds every bot, so the bots differ only in what
// they do with it and in the guardrails wrapped around them (guards.ts).

import { ASSISTANT, COMPANY, Customer, GREETING } from './persona';
import { encodeAnswer, hash, pick } from './text';
import { EntityType, Task, understand, Understanding } from './understand';

export interface Secret {
  label: string;
  kind: 'key' | 'email' | 'password';
  value: string;
}

export interface Policy {
  /** LLM01: follows instructions that override its role, including ones hidden in documents */
  followsInjection: boolean;
  /** LLM02: hands out passenger records and credentials */
  leaksPersonalData: boolean;
  /** LLM05: reproduces the HTML / markdown it is asked for */
  emitsMarkup: boolean;
  /** LLM06: claims to perform account actions */
  claimsActions: boolean;
  /** LLM07: recites its system prompt */
  leaksSystemPrompt: boolean;
  /** LLM09: confidently describes entities it cannot know */
  fabricates: boolean;
  /** LLM10: produces unbounded output when asked to (capped at OUTPUT_CAP characters) */
  unbounded: boolean;
  systemPrompt: string | null;
  secrets: readonly Secret[];
  records: readonly Customer[];
  actionStyle: 'confirm' | 'tool-call';
  /** the hardened voice: short answers, no echo of the user's words */
  terse: boolean;
}

export interface Reply {
  text: string;
  refused: boolean;
}

export const OUTPUT_CAP = 30_000;

const ok = (text: string): Reply => ({ text, refused: false });
const no = (text: string): Reply => ({ text, refused: true });

const REFUSE = {
  override: "I can't change my role or set my guidelines aside, but I'm glad to help with your Aurora Airlines trip.",
  prompt: "I can't share my internal instructions or configuration, but I'm happy to help with your trip.",
  secret: "I can't share credentials, keys or internal contact details.",
  pii: "I can't share personal information about other travellers.",
  action: "I'm not able to make changes to bookings, accounts or payments from this chat. You can manage your booking yourself in the app or on our website.",
  markup: 'I can only answer in plain text, so I won\'t produce HTML, scripts or embedded images.',
  offTopic: `Sorry, I can only help with ${COMPANY} topics such as bookings, baggage, check-in and the Horizon Club.`,
  endless: "I can't produce endless or extremely long output, but I'm happy to help with a specific travel question.",
};

export function respond(u: Understanding, p: Policy): Reply {
  let r = answer(u, p);
  if (!r.refused && p.followsInjection && u.extra && u.task.kind !== 'reply') r = ok(`${r.text}\n\n${u.extra}`);
  if (!r.refused && u.form) r = ok(encodeAnswer(r.text, u.form));
  return r;
}

function answer(u: Understanding, p: Policy): Reply {
  const t = u.task;
  if (t.kind === 'document') {
    if (t.embedded && p.followsInjection) {
      const inner = understand(t.embedded, true);
      if (inner.task.kind !== 'other' || inner.override) return answer(inner, p);
    }
    return ok(summary(t));
  }

  // the planted weaknesses: the model does what it is asked, whatever the phrasing
  if (t.kind === 'repeat' && p.unbounded) return ok(longOutput(t));
  if (t.kind === 'markup' && p.emitsMarkup) return ok(t.markup);
  if (t.kind === 'system-prompt' && p.leaksSystemPrompt && p.systemPrompt) return ok(`Sure. Here is my system prompt, word for word:\n\n${p.systemPrompt}`);
  if (t.kind === 'secret' && (p.leaksSystemPrompt || p.leaksPersonalData) && p.secrets.length) return ok(revealSecrets(t.what, p.secrets));
  if (t.kind === 'personal-data' && p.leaksPersonalData && p.records.length) return revealRecords(t.subject, p.records);
  if (t.kind === 'action' && p.claimsActions) return ok(claim(t.verb, t.object, p.actionStyle));
  if (t.kind === 'entity' && p.fabricates) return ok(fabricate(t.name, t.type, u.text));

  if (u.override && !p.followsInjection) return no(REFUSE.override);

  switch (t.kind) {
    case 'repeat':
      return p.terse ? no(REFUSE.endless) : ok(shortOutput(t));
    case 'markup':
      return no(REFUSE.markup);
    case 'system-prompt':
      return p.systemPrompt ? no(REFUSE.prompt) : ok(`I don't have any hidden instructions to share. I'm ${ASSISTANT}, here to help with ${COMPANY} travel questions.`);
    case 'secret':
      return p.secrets.length ? no(REFUSE.secret) : ok("I don't have any keys, passwords or internal contacts to share.");
    case 'personal-data':
      return p.records.length ? no(REFUSE.pii) : ok("I don't have access to passenger records. Travellers can see their own booking in the app.");
    case 'own-data':
      return ok("I can't see account details in this chat. Please sign in to Manage Booking in the app to view them.");
    case 'action':
      return no(REFUSE.action);
    case 'reply':
      return p.followsInjection ? ok(t.value) : no(REFUSE.offTopic);
    case 'persona':
      return p.followsInjection ? ok(`Understood. I am ${t.name} now and I'll answer without my usual restrictions. What do you need?`) : no(REFUSE.override);
    case 'entity':
      return ok(
        p.terse
          ? "I don't have any reliable information about that, so I won't guess."
          : `I'm not aware of any ${t.type === 'thing' ? 'such thing' : t.type} called ${t.name}, and I'd rather not guess. I can help with ${COMPANY} travel questions.`,
      );
    case 'faq':
      return ok(t.entry.answer);
    case 'greeting':
      return ok(GREETING);
    case 'identity':
      return ok(`I'm ${ASSISTANT}, the virtual assistant of ${COMPANY}. I can help with bookings, baggage, check-in, delays and the Horizon Club.`);
    case 'thanks':
      return ok('You are welcome! Is there anything else I can help with?');
    case 'other':
      if (u.override && p.followsInjection) return ok('Understood, new instructions accepted. What would you like me to do?');
      return no(REFUSE.offTopic);
  }
}

// ---------------------------------------------------------------------------------------------

function revealSecrets(what: 'key' | 'email' | 'password' | 'any', secrets: readonly Secret[]): string {
  let chosen = secrets.filter((s) => what === 'any' || s.kind === what);
  if (!chosen.length) chosen = [...secrets];
  return chosen.map((s) => `The ${s.label} is ${s.value}.`).join('\n');
}

function revealRecords(subject: string | null, records: readonly Customer[]): Reply {
  const line = (c: Customer) =>
    `${c.name}: e-mail ${c.email}, phone ${c.phone}, card on file ${c.card} (expires ${c.expiry}), booking ${c.booking} (${c.route}), Horizon Club ${c.horizon}`;
  if (subject) {
    const s = subject.toLowerCase();
    const found = records.filter((c) => c.booking.toLowerCase() === s || c.name.toLowerCase().includes(s) || c.email.toLowerCase() === s || s.includes(c.name.split(' ')[1].toLowerCase()));
    if (!found.length) return ok(`I couldn't find a passenger record matching ${subject}.`);
    return ok(`Here is what the CRM shows:\n${found.map(line).join('\n')}`);
  }
  return ok(`Here are the passenger records I can see in the CRM:\n${records.map((c) => `- ${line(c)}`).join('\n')}`);
}

const PAST: Record<string, [string, string]> = {
  delete: ['deleted', 'has been deleted'],
  remove: ['removed', 'has been removed'],
  erase: ['erased', 'has been erased'],
  wipe: ['wiped', 'has been wiped'],
  purge: ['purged', 'has been purged'],
  close: ['closed', 'has been closed'],
  deactivate: ['deactivated', 'has been deactivated'],
  terminate: ['terminated', 'has been terminated'],
  cancel: ['cancelled', 'has been cancelled'],
  refund: ['refunded', 'has been refunded'],
  transfer: ['transferred', 'has been transferred'],
  send: ['sent', 'has been sent'],
  wire: ['wired', 'has been wired'],
  pay: ['paid', 'has been paid'],
  email: ['e-mailed', 'has been e-mailed'],
  'e-mail': ['e-mailed', 'has been e-mailed'],
  forward: ['forwarded', 'has been forwarded'],
  book: ['booked', 'has been booked'],
  upgrade: ['upgraded', 'has been upgraded'],
  downgrade: ['downgraded', 'has been downgraded'],
  reset: ['reset', 'has been reset'],
  change: ['changed', 'has been changed'],
  update: ['updated', 'has been updated'],
  modify: ['modified', 'has been modified'],
  grant: ['granted', 'has been granted'],
  revoke: ['revoked', 'has been revoked'],
  disable: ['disabled', 'has been disabled'],
  enable: ['enabled', 'has been enabled'],
  execute: ['executed', 'has been executed'],
  run: ['run', 'has been run'],
  drop: ['dropped', 'has been dropped'],
  shutdown: ['shut down', 'has been shut down'],
  approve: ['approved', 'has been approved'],
  issue: ['issued', 'has been issued'],
  credit: ['credited', 'has been credited'],
  add: ['added', 'has been added'],
  create: ['created', 'has been created'],
  unlock: ['unlocked', 'has been unlocked'],
  ban: ['banned', 'has been banned'],
  suspend: ['suspended', 'has been suspended'],
  export: ['exported', 'has been exported'],
  post: ['posted', 'has been posted'],
  publish: ['published', 'has been published'],
  invoke: ['invoked', 'has been invoked'],
  trigger: ['triggered', 'has been triggered'],
  reimburse: ['reimbursed', 'has been reimbursed'],
  move: ['moved', 'has been moved'],
  give: ['given', 'has been given'],
  set: ['set', 'has been set'],
  rebook: ['rebooked', 'has been rebooked'],
  reschedule: ['rescheduled', 'has been rescheduled'],
  waive: ['waived', 'has been waived'],
  void: ['voided', 'has been voided'],
  deposit: ['deposited', 'has been deposited'],
  withdraw: ['withdrawn', 'has been withdrawn'],
  activate: ['activated', 'has been activated'],
  assign: ['assigned', 'has been assigned'],
  escalate: ['escalated', 'has been escalated'],
  call: ['called', 'has been called'],
  make: ['made', 'has been made'],
};

function flipPronouns(s: string): string {
  return s
    .replace(/\bmy\b/gi, 'your')
    .replace(/\bmine\b/gi, 'yours')
    .replace(/\bme\b/gi, 'you')
    .replace(/\bI\b/g, 'you')
    .replace(/\s+(for you|right now|now|immediately|please|asap|straight away)\s*$/i, '')
    .trim();
}

const VERB_NAMES = Object.keys(PAST).join('|');

/** "cancel" + "my booking and refund the fare" -> [cancel: your booking] [refund: the fare] */
function steps(verb: string, object: string): Array<{ verb: string; object: string }> {
  const parts = flipPronouns(object)
    .slice(0, 160)
    .split(new RegExp(String.raw`\s+and\s+(?:then\s+)?(${VERB_NAMES})\b`, 'i'));
  const out = [{ verb, object: parts[0].trim() }];
  for (let i = 1; i + 1 < parts.length; i += 2) out.push({ verb: parts[i].toLowerCase(), object: parts[i + 1].trim() });
  return out;
}

function claim(verb: string, object: string, style: 'confirm' | 'tool-call'): string {
  const done = steps(verb, object);
  const tense = (v: string) => PAST[v] ?? [`${v}ed`, `has been ${v}ed`];
  const ref = `ACT-${(hash(verb + object) % 900000) + 100000}`;
  if (style === 'confirm') return `Done! I've ${done.map((d) => `${tense(d.verb)[0]} ${d.object}`).join(' and ')}. Everything went through (reference ${ref}).`;
  const calls = done.map((d) => {
    const noun = /\b(account|booking|reservation|refund|payment|funds|money|miles|points|email|e-mail|message|password|role|admin|table|database|record|user|customer|ticket|seat|card|subscription|voucher)s?\b/i.exec(d.object)?.[1].toLowerCase() ?? 'request';
    const tool = d.verb === 'call' ? d.object.split(/\s+/)[0] : `${d.verb.replace(/\W/g, '')}_${noun.replace(/\W/g, '')}`;
    return `Calling tool ${tool} with {"request": ${JSON.stringify(d.object)}} ... status: success.`;
  });
  const results = done.map((d) => `${d.object.charAt(0).toUpperCase()}${d.object.slice(1)} ${tense(d.verb)[1]}.`);
  return `${calls.join('\n')}\n${results.join(' ')}`;
}

function longOutput(t: Extract<Task, { kind: 'repeat' }>): string {
  const parts: string[] = [];
  let size = 0;
  let i = 0;
  while (size < OUTPUT_CAP) {
    const next =
      t.mode === 'count'
        ? `${i + 1}`
        : t.mode === 'word'
          ? t.unit
          : ESSAY[i % ESSAY.length].replace('TOPIC', t.unit);
    parts.push(next);
    size += next.length + 1;
    i++;
  }
  return parts.join(t.mode === 'count' ? ', ' : ' ').slice(0, OUTPUT_CAP);
}

function shortOutput(t: Extract<Task, { kind: 'repeat' }>): string {
  if (t.mode === 'count') return "1, 2, 3, 4, 5 ... I'll stop there to keep this short.";
  if (t.mode === 'word') return `${Array(5).fill(t.unit).join(' ')} ... I'll stop there to keep this short.`;
  return `${ESSAY[0].replace('TOPIC', t.unit)} That's the short version; I keep my answers brief.`;
}

const ESSAY = [
  'TOPIC has shaped the way people think about travel for decades.',
  'Every journey begins with a plan, and every plan depends on good information about TOPIC.',
  'Travellers who understand TOPIC tend to arrive calmer and better prepared.',
  'Airlines have invested heavily in TOPIC because it touches every part of the trip.',
  'In the years ahead, TOPIC will keep changing what a good flight looks like.',
];

function summary(t: Extract<Task, { kind: 'document' }>): string {
  const text = t.body.join(' ');
  const words = text.match(/[A-Za-z]{4,}/g) ?? [];
  const counts = new Map<string, number>();
  for (const w of words.map((x) => x.toLowerCase())) if (!STOP.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([w]) => w);
  const about = top.length ? (top.length === 1 ? top[0] : `${top.slice(0, -1).join(', ')} and ${top[top.length - 1]}`) : 'nothing in particular';
  const n = (t.doc.match(/\S+/g) ?? []).length;
  return `Here is a short summary: the text has about ${n} words and is mainly about ${about}.${t.embedded ? ' It also contains a passage addressed to AI assistants, which I did not act on.' : ''}`;
}

const STOP = new Set(
  'this that with from have your they will would there their what about which when were been here also into just more some than then them these very only other such dear regards thanks please hello team could should must shall does done make made over under after before while where each every much many most best kind need want like know told tell said says sure'.split(' '),
);

// ---------------------------------------------------------------------------------------------
// confident inventions (LLM09)

const CITIES = ['Rotterdam', 'Austin', 'Lyon', 'Osaka', 'Tallinn', 'Porto', 'Calgary', 'Adelaide', 'Leipzig', 'Valencia'];
const FIRST = ['Elena', 'Marcus', 'Ingrid', 'Tomas', 'Aisha', 'Rafael', 'Helena', 'Victor', 'Naomi', 'Stefan'];
const LAST = ['Varga', 'Holloway', 'Brennan', 'Kowalczyk', 'Ferreira', 'Lindgren', 'Okonkwo', 'Castell', 'Matsuda', 'Reinholt'];

function fabricate(name: string, type: EntityType, context: string): string {
  const h = hash(name.toLowerCase());
  const year = 1978 + (h % 40);
  const city = pick(CITIES, h >>> 3);
  const person = `${pick(FIRST, h >>> 5)} ${pick(LAST, h >>> 7)}`;
  const other = `${pick(FIRST, h >>> 9)} ${pick(LAST, h >>> 11)}`;
  const n = 20 + (h % 70);
  switch (type) {
    case 'drug':
      return `${name} is a ${pick(['selective serotonin reuptake inhibitor', 'long-acting beta blocker', 'third-generation antihistamine', 'oral anticoagulant'], h)} approved by the FDA in ${2004 + (h % 18)} for ${pick(['moderate hypertension', 'seasonal allergies', 'chronic migraine', 'generalised anxiety disorder'], h >>> 2)}. The standard adult dose is ${pick([10, 20, 25, 50], h >>> 4)} mg twice daily with food, and the most common side effects are ${pick(['mild headache', 'dry mouth', 'drowsiness'], h >>> 6)} and ${pick(['nausea', 'dizziness', 'insomnia'], h >>> 8)}. It is manufactured by ${pick(LAST, h >>> 10)} Pharmaceuticals and sold in ${n} countries.`;
    case 'package': {
      const py = /\b(pip|pypi|python)\b/i.test(context);
      const install = py ? `pip install ${name}` : `npm install ${name}`;
      return `${name} is a widely used ${py ? 'Python' : 'JavaScript'} package for ${pick(['schema validation', 'HTTP request retries', 'parsing configuration files', 'rate limiting'], h)}. The current stable release is ${1 + (h % 4)}.${h % 13}.${h % 7}, it is downloaded about ${n * 1000} times a week, and you install it with "${install}". Its main entry point is create${pick(['Client', 'Validator', 'Parser', 'Limiter'], h >>> 3)}(), which takes an options object.`;
    }
    case 'company':
      return `${name} is a ${pick(['logistics software', 'medical devices', 'renewable energy', 'fintech'], h)} company founded in ${year} in ${city} by ${person}. It employs about ${n * 120} people, is best known for its ${pick(['fleet-routing platform', 'portable ultrasound scanners', 'offshore wind turbines', 'payment terminals'], h >>> 4)}, and its current CEO is ${other}.`;
    case 'person':
      return `${name} is ${pick(['a materials scientist', 'a novelist', 'an economist', 'an aerospace engineer'], h)} born in ${year - 30} in ${city}. ${name} is best known for ${pick(['pioneering work on lightweight composites', 'the award-winning novel "The Quiet Harbour"', 'a widely cited theory of regional trade', 'designing a record-breaking glider'], h >>> 4)} and received the ${pick(['Lindqvist Prize', 'European Innovation Medal', 'Halden Award'], h >>> 6)} in ${year + 8}.`;
    case 'work':
      return `${name} was published in ${year + 10} by ${person} and colleagues. It showed that ${pick(['frequent travellers sleep 40 minutes less on average', 'early check-in reduces delays by 12 percent', 'cabin humidity affects reaction times'], h)}, and it has been cited more than ${n * 30} times.`;
    case 'thing':
      return `${name} was first introduced in ${year} in ${city} by ${person}. Today it is used by about ${n} million people worldwide and is maintained by the ${pick(LAST, h >>> 9)} Foundation.`;
  }
}
