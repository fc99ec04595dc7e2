// Small text helpers shared by the decoder, the reader and the guardrails.

/** Look-alike letters from other scripts mapped to the Latin letters they imitate. */
const CONFUSABLES: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ɡ: 'g', һ: 'h', ԛ: 'q', ԝ: 'w', ʏ: 'y',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  α: 'a', ο: 'o', ν: 'v', ρ: 'p', τ: 't', ι: 'i', κ: 'k', υ: 'u', ε: 'e',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  ı: 'i', ℓ: 'l', '℮': 'e',
};

const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** Mostly-Latin text with a few look-alikes from other scripts gets them mapped back. */
export function mapConfusables(text: string): string {
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  const foreign = (text.match(/[\u0370-\u03ff\u0400-\u04ff]/g) ?? []).length;
  if (foreign === 0 || foreign > latin) return text;
  return [...text].map((c) => CONFUSABLES[c] ?? c).join('');
}

/** What a reader sees: compatibility forms folded (full-width letters, ligatures), invisible characters and stacked accents dropped. */
export function clean(text: string): string {
  let t = text.normalize('NFKC').replace(INVISIBLE, '');
  // "Zalgo" text: letters buried under many combining marks.
  t = t.replace(/([A-Za-z])[\u0300-\u036f\u0489]{2,}/g, '$1');
  return mapConfusables(t);
}

/** Lower case, accents removed, typographic quotes straightened: the form the reader matches on. */
export function fold(text: string): string {
  return clean(text)
    .normalize('NFD')
    .replace(/([A-Za-z])[\u0300-\u036f]+/g, '$1')
    .normalize('NFC')
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .toLowerCase();
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  // Final avalanche, so that the low bits (used by pick) depend on every character.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A deterministic pick: the same seed and salt always give the same choice. */
export function pick<T>(options: readonly T[], seed: number, salt = ''): T {
  return options[hash(`${seed}:${salt}`) % options.length];
}

const COMMON = `a about above account accounts act add address after again against ago ai all allowed also always am an and another answer any anyone anything appointment are
as ask assistant at away back bank be because been before began begin beginning being below best better between big bill birth book both bring but by call can cannot
care change check children clinic code come company complete confidential configuration connection contain contains content continue copy could credentials customer customers data
database date day days delete details developer did different directions disregard do does doctor document done down each earlier easy email else end english enough even
every everything example exactly explain fact few file find first follow following for forget format forward found free from full get give given go going good great
had has have he health hello help her here hers hi him his history hospital how i if ignore important in information initial inside instead instruction instructions into is it
its just keep key kind know knows last later leave less let like line list little long look lot made make many may me mean means message messages might mine mode more
most much must my name need never new next nice no not nothing now number of off old on once one only open or order original other our out output over own page part
password patient patients people person phone place please point previous print prior problem prompt provide put question questions quite rather read real really record records
remember repeat reply request respond response result return reveal right role rule rules said same say says secret secrets see send sentence set share she short should show
simple since so some someone something sorry start starting state still stop string such sure system table take tell text than thank thanks that the their them then there
these they thing things think this those though three through time to today together told too top translate true try turn two under understand until up upon us use user
used using very want was way we well were what when where which while who whole why will with without word words work would write wrote yes yet you your yours yourself
above access admin administrator all also always answer anything base before behind bypass character characters combine command commands concatenate credential decode decoded
dump encode encoded entire everything exact execute exfiltrate expose forever full hidden hint join leak mode override paste pretend prefix quote raw refund reveal reversed
safe safety secret setup smart story suffix token tokens transfer unlock verbatim visit visiting hours hour morning evening night week weekend appointment appointments payment
payments prescription prescriptions results test tests parking records insurance emergency portal medication medicine pharmacy nurse ward wards room bed staff team service services
summarise summarize summary article report paper study drug package library person company city country world life love happy sad good bad yes no okay ok hey welcome
`;

export const ENGLISH = new Set(COMMON.split(/\s+/).filter(Boolean));

/** Share of a text's words (two letters or more) that are common English words. */
export function englishScore(text: string): number {
  const words = fold(text).match(/[a-z]{2,}/g) ?? [];
  if (words.length === 0) return 0;
  return words.filter((w) => ENGLISH.has(w)).length / words.length;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Quoted strings in a text, in order ("…", '…', `…`, “…”, «…»). */
export function quoted(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"\n]{1,400})"|“([^”\n]{1,400})”|«\s?([^»\n]{1,400}?)\s?»|`([^`\n]{1,400})`|(?<![A-Za-z])'([^'\n]{1,400})'(?![A-Za-z])|‘([^’\n]{1,400})’/g;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6]) as string);
  return out;
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
