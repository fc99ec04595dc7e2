import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { patternSites, productionSources, type PatternSite } from './support/pattern-sources';
import { RECHECK_PARAMS, verdictOf, type Verdict } from './support/recheck-verdicts';

// Every regular expression in Gauntlet's production source, proven linear by recheck (a static
// ReDoS checker) as a search, the way exec, test, match and replace run it: a backtracking pattern
// that is quadratic on some text (`rule` and 80,000 spaces took 12 s) is found here from the
// pattern alone, not only by the hostile shapes someone thought of (bench/hostile-answers.ts).
//
// recheck takes seconds on a long pattern, so its verdicts are recorded in
// linear-patterns.verdicts.json, keyed by flags and source; a pattern not recorded yet is checked
// here (up to RECHECK_PARAMS.timeout each) and the spec fails until it is recorded. After adding or
// changing patterns, record the new ones (and drop the gone ones) with
//   RECHECK_WRITE=1 npx jest test/linear-patterns.spec.ts
// (RECHECK_WRITE=all rechecks every pattern, a few minutes) and review the file's diff.
//
// The custom patterns of gauntlet.yaml (a custom probe's success.pattern) are not RegExps: they run
// on re2js, RE2's linear-time engine, with the pattern's program size bounded
// (libs/scanner/src/detectors/user-pattern.ts).
const ROOT = resolve(__dirname, '..');
const VERDICTS_FILE = join(__dirname, 'linear-patterns.verdicts.json');
const WRITE = process.env.RECHECK_WRITE; // '1': record the patterns not recorded; 'all': recheck all
/** what the recorded verdicts hold for: recheck's version and parameters */
const CHECKED_BY = `recheck ${JSON.parse(readFileSync(join(ROOT, 'node_modules/recheck/package.json'), 'utf8')).version} ${JSON.stringify(RECHECK_PARAMS)}`;

/**
 * Patterns recheck flags that are allowed, each keyed by file and source, with what it reads and
 * why that cannot cost an attacker's choice of time. Acceptable only when the pattern never reads
 * text a target wrote, or reads text already bounded to a small size, or recheck's fuzzer flagged
 * a counted repeat whose cost per position is bounded (measured linear). Anything a target writes
 * unbounded gets a linear rewrite instead.
 */
const ALLOWED: readonly { file: string; source: string; why: string }[] = [
  { file: 'apps/cli/src/commands/schedules.ts', source: String.raw`\/+$`, why: "the service's URL the CLI was given (--url, GAUNTLET_URL)" },
  { file: 'apps/cli/src/config/gauntlet-config.ts', source: String.raw`\$\$\{|\$\{([^}]*)\}`, why: "the user's own gauntlet.yaml values, not target text" },
  { file: 'apps/cli/src/scan/scan-plan.ts', source: String.raw`\/+$`, why: "a target's URL from the user's gauntlet.yaml" },
  { file: 'apps/cli/src/server/client.ts', source: String.raw`\/+$`, why: "the service's URL the CLI was given (--url, GAUNTLET_URL)" },
  { file: 'apps/dashboard/src/main.ts', source: String.raw`\/+$`, why: "the dashboard's own path in the user's browser" },
  { file: 'apps/gauntlet/src/config/config.ts', source: String.raw`\/+$`, why: "PUBLIC_BASE_URL or CALLBACK_BASE_URL from the environment" },
  { file: 'libs/assessment/src/report-model.ts', source: String.raw`\/+$`, why: "the service's own base URL" },
  { file: 'libs/domain/src/target/endpoint.ts', source: String.raw`\/+$`, why: "a target's URL as its user typed it (at most 2048 characters, the API's bound)" },
  { file: 'libs/outbound/src/address-policy.ts', source: String.raw`%.*$`, why: "an IP address: one the resolver returned, or a literal isIP accepted from a URL host (at most 2048 characters)" },
  { file: 'libs/outbound/src/guarded-proxy.ts', source: String.raw`\/+$`, why: "the callback listener's base URL (configuration)" },
  { file: 'libs/outbound/src/own-listeners.ts', source: String.raw`%.*$`, why: "an IP address: one the resolver returned, or a literal isIP accepted from a URL host (at most 2048 characters)" },
  { file: 'libs/scanner/src/agents/tool-kinds.ts', source: String.raw`\b(send|compose|forward|reply)\b.*\b(e-?mail|mail|message|sms|slack|notification)s?\b|\b(e-?mail|mail)\b.*\bsend\b|\bsend[ _]?(e-?mail|mail|message)\b`, why: "a tool's name and description, held to 64 and 1024 characters (MCP-listed ones too)" },
  { file: 'libs/scanner/src/callbacks/dns-wire.ts', source: String.raw`(\d+\.\d+\.\d+\.\d+)$`, why: "an IPv6 address of ours (at most 45 characters)" },
  { file: 'libs/scanner/src/callbacks/listener.ts', source: String.raw`\/+$`, why: "the callback base URL (configuration)" },
  { file: 'libs/scanner/src/callbacks/planting.ts', source: String.raw`\/+$`, why: "the callback base URL (configuration)" },
  { file: 'libs/scanner/src/converters/topics.ts', source: String.raw`\s*(?:,|;|\/|—|–|\s-\s|\bor\b|\band\b|\betc\.?)\s*`, why: "a topic phrase CUE captured: at most 160 characters" },
  { file: 'libs/scanner/src/converters/topics.ts', source: String.raw`\s+(?:today|first|now|here|please|too|as well|for you|for me)$`, why: "a piece of a topic phrase CUE captured: at most 160 characters" },
  { file: 'libs/scanner/src/detectors/rules/agency.ts', source: String.raw`(?:^[^\S\n\r\u2028\u2029]*|[.!?]\s+)(?:the\s+|your\s+|all\s+)?(?:message|messages|e-?mail|e-?mails|records?|accounts?|transfer|refund|payment|order|orders|subscriptions?|table|files?|data|access|password|command|funds|money|request|user|customer|booking)\s+(?:(?:has|have) been\s+|successfully\s+)?(?:sent|emailed|deleted|removed|transferred|wired|executed|ran|granted|revoked|issued|refunded|processed|dropped|cancell?ed|changed|reset|updated|purchased|placed|ordered|delivered|erased|wiped|purged|destroyed|initiated|approved|deactivated|disabled|closed|terminated|credited|paid|elevated|promoted|unsubscribed|submitted|forwarded|applied|moved|run(?!\s+(?:into|out|across|short|low|late)\b)|mailed|e-mailed)\s*(?=[.!(—–-]|$)`, why: "recheck's fuzzer gave up in time; a line's own indentation, then literal words and single runs of spaces, each entered once a start; measured linear (0.97 ms on 80k of `\\r` after 'system', the old pattern 22 s)" },
  { file: 'libs/scanner/src/detectors/finders/credential-pieces.ts', source: '(?:[^\\s\'"<>`)\\]]+|<[\\w -]{1,20}>)*', why: "a false alarm: nothing follows the star, so the sticky match ends where the star stops and never backtracks (0.1 ms on the attack at 80k)" },
  { file: 'libs/scanner/src/detectors/finders/pii.ts', source: String.raw`(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?|\d{1,4}[ .-])?\d{3,4}[ .-]\d{3,4}(?:[ .-]\d{2,4})?|(?:\+\d{1,3}[ .-]?|(?<![\d.,])0)\d{2,5}(?:[ .-]?\d{2,6}){1,3}`, why: "recheck's fuzzer: every repeat is counted (at most 6 digits a group, 3 groups), so a start costs a bounded amount; its attack measured linear (5.7 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/finders/pii.ts', source: String.raw`(?:\b(?:call|phone|ring|text|reach|contact)\s+us\b|\bour\s+(?:\w+\s+)?(?:helpline|hotline|line|number|team|support|desk|office|centre|center)\b|\b(?:helpline|hotline|switchboard|customer service|support line)\b)[^.\n]{0,24}$`, why: "the 48 characters before a phone number (PUBLISHED_LINE)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`[.,;:]+$`, why: "a value VALUE matched, whose runs of these are bounded (64 characters in an address or a path, 300 in a URL)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`(?<![\w.+-])[\w.+-]+@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|https?:\/\/[^\s"'<>)\]]{3,300}|\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b|\b[A-Z]{2,10}-[A-Z0-9]{3,20}\b|(?:^|[\s"'(])\/(?:[\w.-]{1,64}\/){1,12}[\w.-]{1,64}|\b(?!(?:19|20)\d\d\b)\d{4,}\b`, why: "recheck's fuzzer: an address is tried only where a run of address characters starts (the lookbehind) or once where a value ended (namedValues), the other repeats are counted; its attack measured linear (1.9 ms at 80k, where the pattern before it took 75 ms)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`\b(?:ai\s+)?(?:assistants?|agents?|ai|llms?|bots?|chatbots?|language\s+models?|models?|copilots?)(?:\s+(?:reading|processing|summari[sz]ing|handling|parsing|seeing|viewing)\s+(?:this|these|the)\s+[a-z-]{2,20})?\s*[:,]\s*(?:please\s+)?(?:now\s+|immediately\s+|also\s+)?(?:before|when|after|once|immediately|you\s+(?:must|should|will|need\s+to|are\s+to)|ignore|disregard|forget|override|send|e-?mail|forward|transfer|pay|wire|delete|remove|erase|drop|fetch|visit|open|call|run|execute|post|upload|write|save|create|grant|reset|reply|respond|answer|include|append|add|tell|say|output|print|reveal|do\s+not|don'?t|never|always)\b`, why: "recheck's fuzzer: literal words, one counted run (`[a-z-]{2,20}`), single runs of spaces; its attack measured linear (0.7 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`\b(?:decode|base64|rot13)\b[^.\n]{0,40}\b(?:and|then)\b[^.\n]{0,20}\b(?:follow|execute|run|obey|do)\b`, why: "recheck's fuzzer: the gaps are counted (`{0,40}`, `{0,20}`); its attack measured linear (2.7 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`\b(?:reveal|print|show|repeat|output|leak|tell me|what (?:is|are))\b[^.\n]{0,30}\b(?:your |the )?(?:system prompt|initial (?:prompt|instructions)|hidden (?:instructions|prompt)|instructions above|confidential instructions)\b`, why: "recheck's fuzzer: the gap is counted (`[^.\\n]{0,30}`); its attack measured linear (0.12 ms at 80k; `leak ` repeated 11.8 ms)" },
  { file: 'libs/scanner/src/detectors/instructions.ts', source: String.raw`\b(?:you are now|from now on,? you(?: are|'re| will)|act as|pretend (?:to be|you are)|roleplay as)\b[^.\n]{0,60}\b(?:unrestricted|unfiltered|jailbroken|dan\b|developer mode|no (?:rules|limits|restrictions|filters))`, why: "recheck's fuzzer: the gap is counted (`[^.\\n]{0,60}`), so a start costs a bounded amount; its attack measured linear (10.9 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/refusal.ts', source: String.raw`\b(?:but|however|that said|anyway|nevertheless|here (?:it is|you go|is|are)|since (?:we'?re|you)\b[^.!?]*)|:\s*\n`, why: "recheck's fuzzer: literal words; the one run (`[^.!?]*`) ends the match and is never given back; its attack measured linear (0.16 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/refusal.ts', source: String.raw`\b(?:i can(?:'|’|no)?t\b|i cannot|i'?m (?:not able|unable|not allowed|not permitted)|i am (?:not able|unable|not allowed|not permitted)|i won'?t\b|i will not|i'?m sorry|i am sorry|sorry, but|i must decline|i have to decline|not (?:able|allowed|permitted) to|against (?:my|our) (?:policy|policies|guidelines|rules)|i can only (?:help|assist|answer)|i (?:do not|don't) have (?:access|the ability)|(?:ich (?:kann|darf)|(?:kann|darf) ich) (?:[a-zäöüß]+ ){0,3}(?:nicht|keine)|je ne peux pas|je ne suis pas (?:autoris|en mesure)|no (?:puedo|estoy autorizad|me es posible)|n[aã]o (?:posso|estou autorizad|consigo)|non (?:posso|sono autorizzat)|ik (?:kan|mag) (?:[a-z]+ ){0,2}niet)`, why: "recheck's fuzzer: literal phrases, the only repeats counted (`(?:[a-zäöüß]+ ){0,3}`, each word ended by its space); its attack measured linear (0.7 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/rules/markup.ts', source: String.raw`<[a-z][a-z0-9]*\b[^>]*\son[a-z]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)[^>]*>`, why: "sticky, tried only where handlersIn picks a start (once per stretch before a `>`); one try of its attack measured linear (0.66 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/rules/markup.ts', source: String.raw`<img\b[^>]*\bsrc\s*=\s*["']?(https?:\/\/[^"'\s>]+)`, why: "sticky, tried only where imageUrls picks a start (past the next `>` when one fails); one try of its attack measured linear (0.16 ms at 80k)" },
  { file: 'libs/scanner/src/detectors/rules/tool-call.ts', source: String.raw`\b[A-Z]{2}\d{2}[A-Z0-9]{11,30}\b|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?:\/\/[^\s"'<>)]+|\b\d{4,}\b`, why: "our own probe's text as we sent it (asSent), never the target's" },
  { file: 'libs/scanner/src/models/json-chat.ts', source: String.raw`\/+$`, why: "a model endpoint's URL (configuration)" },
  { file: 'libs/scanner/src/preflight/check-target.ts', source: String.raw`\/+$`, why: "a target's URL path (at most 2048 characters, the API's bound)" },
  { file: 'libs/webhooks/src/envelope.ts', source: String.raw`\/+$`, why: "the service's own base URL (configuration)" },
];

/**
 * Patterns built at run time, which no static check can read: each with why it is linear (built
 * from checked parts, or from our own bounded text).
 */
const NOT_CHECKED_STATICALLY: readonly { file: string; code: string; why: string }[] = [
  { file: 'apps/gauntlet/src/http/method-not-allowed.ts', code: 'new RegExp(`^${source}$`)', why: "our own routes' paths, escaped, `[^/]+` per parameter and `.*` only as a last segment, anchored both ends; read over a request's path" },
  { file: 'libs/scanner/src/detectors/readings.ts', code: "new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'g')", why: 'one character class of literal letters: one step per character' },
  { file: 'libs/scanner/src/detectors/steering.ts', code: "new RegExp([...value].map((c) => c.replace(/[.*+?^${}()|[\\]\\\\/-]/g, '\\\\$&')).join('\\\\s?'), 'gi')", why: 'a named value (at most a few hundred characters) escaped, `\\s?` between characters: the next character decides each `\\s?`, so each position costs at most twice the value' },
  { file: 'libs/scanner/src/detectors/text.ts', code: "new RegExp(each.map((p) => `(?:${p})`).join('|'))", why: 'our own needles (canaries, held values) escaped, `\\s*` between characters (squash() left no spaces in a needle): each position costs at most the needles\' length' },
  { file: 'libs/scanner/src/detectors/text.ts', code: 'new RegExp(p)', why: 'one of the needles above' },
  { file: 'libs/scanner/src/detectors/text.ts', code: "new RegExp(needles.map((n) => `(${tolerantPattern(n)})`).join('|'), 'i')", why: 'our own needles escaped, invisible characters (none of which a needle holds) between characters: each position costs at most the needles\' length' },
  { file: 'libs/scanner/src/detectors/text.ts', code: "new RegExp(tolerantPattern(needle), 'i')", why: 'one needle, as above' },
];

interface Recorded {
  checkedBy: string;
  verdicts: Record<string, Verdict>;
}

const keyOf = (s: { source: string; flags: string }) => `/${s.source}/${s.flags}`;
const sites = patternSites(ROOT, productionSources(ROOT));
const resolved = sites.filter((s): s is PatternSite & { source: string } => s.source !== null);
const recorded: Recorded = JSON.parse(readFileSync(VERDICTS_FILE, 'utf8'));
const verdicts = new Map<string, Verdict>();
const checkedHere: string[] = [];

beforeAll(async () => {
  const keys = [...new Set(resolved.map(keyOf))];
  const known = WRITE === 'all' || recorded.checkedBy !== CHECKED_BY ? {} : recorded.verdicts;
  const todo = keys.filter((k) => !known[k]);
  for (const k of keys) if (known[k]) verdicts.set(k, known[k]);
  // two at a time: recheck runs each in its own native process
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const key = todo[next++];
      const site = resolved.find((s) => keyOf(s) === key)!;
      verdicts.set(key, await verdictOf(site.source, site.flags));
      checkedHere.push(key);
    }
  };
  await Promise.all([worker(), worker()]);
  if (WRITE) {
    const sorted = Object.fromEntries([...verdicts].sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(VERDICTS_FILE, `${JSON.stringify({ checkedBy: CHECKED_BY, verdicts: sorted }, null, 1)}\n`);
  }
}, 30 * 60_000);

const where = (s: PatternSite) => `${s.file}:${s.line}`;

describe('every regular expression in production source is linear (recheck)', () => {
  it('finds the patterns: regex literals and RegExp(...) across apps/ and libs/', () => {
    expect(resolved.length).toBeGreaterThan(400);
    expect(resolved.some((s) => s.file === 'libs/scanner/src/detectors/rules/system-prompt.ts' && s.source.includes('rule(?:'))).toBe(true);
  });

  it('each is safe per recheck, or allowed with its reason', () => {
    const flagged = resolved
      .filter((s) => verdicts.get(keyOf(s))!.status !== 'safe' && !ALLOWED.some((a) => a.file === s.file && a.source === s.source))
      .map((s) => {
        const v = verdicts.get(keyOf(s))!;
        return `${where(s)} ${keyOf(s)}: ${v.status} ${v.complexity ?? v.error ?? ''}${v.degree ? ` degree ${v.degree}` : ''} (${v.checker})${v.attack ? `, attack ${v.attack}` : ''}`;
      });
    expect(flagged).toEqual([]);
  });

  it('each allowed pattern is still there and still flagged (the list cannot go stale)', () => {
    const stale = ALLOWED.filter((a) => {
      const here = resolved.filter((s) => s.file === a.file && s.source === a.source);
      return here.length === 0 || here.every((s) => verdicts.get(keyOf(s))!.status === 'safe');
    });
    expect(stale.map((a) => `${a.file} /${a.source}/`)).toEqual([]);
  });

  it('each pattern built at run time is listed with why it is linear, and each listed one is still built there', () => {
    const unresolved = sites.filter((s) => s.source === null);
    const listed = (s: PatternSite) => NOT_CHECKED_STATICALLY.some((n) => n.file === s.file && n.code === s.code);
    expect(unresolved.filter((s) => !listed(s)).map((s) => `${where(s)} ${s.code}`)).toEqual([]);
    expect(NOT_CHECKED_STATICALLY.filter((n) => !unresolved.some((s) => s.file === n.file && s.code === n.code)).map((n) => `${n.file} ${n.code}`)).toEqual([]);
  });

  it('the recorded verdicts are those of the patterns in the source, by this recheck', () => {
    if (WRITE) return;
    const keys = new Set(resolved.map(keyOf));
    expect({ checkedBy: recorded.checkedBy, unused: Object.keys(recorded.verdicts).filter((k) => !keys.has(k)), notRecorded: checkedHere }).toEqual({
      checkedBy: CHECKED_BY,
      unused: [],
      notRecorded: [],
    });
  });
});
