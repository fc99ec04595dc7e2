import { HeldValues, PATTERNS, cleanUrl, isImperative, quotedIn, referencedValues } from './tool-reading';

/**
 * Reading what a tool returned (a fetched page, an e-mail, a record): its text, and the
 * instructions it carries, as a naive agent reads them: any sentence that tells someone to do
 * something, whoever it seems addressed to, in the visible text or hidden in a comment, an
 * attribute or a JSON field.
 */

/** the readable text of a result: JSON string fields, HTML without tags (comments and alt/title text kept), entities decoded */
export function readableText(result: string): string {
  let text = result;
  try {
    const parsed = JSON.parse(result) as unknown;
    const strings: string[] = [];
    const walk = (v: unknown, depth: number) => {
      if (depth > 8) return;
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
      else if (v && typeof v === 'object') Object.values(v).forEach((x) => walk(x, depth + 1));
    };
    walk(parsed, 0);
    if (strings.length) text = strings.join('\n');
  } catch {
    /* not JSON: read as it is */
  }
  return text
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--|-->/g, '\n')
    .replace(/<[^>]*\b(?:alt|title|content|aria-label)\s*=\s*"([^"]*)"[^>]*>/gi, '\n$1\n')
    .replace(/<\/?(?:p|div|br|li|h\d|tr|section|article|footer|header)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** sentences and lines, URLs kept whole (their dots end nothing) */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z"'(\[])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 2);
}

/** a lead-in before the imperative: "Note to the AI assistant:", "IMPORTANT -", "Please", "You must", "Ignore the above and", "Assistant,", "The user has asked that you" */
const LEAD_IN =
  /^(?:(?:dear\s+|hey\s+|hi\s+)?(?:the\s+)?(?:ai|assistants?|agents?|bots?|models?|llms?)\s*,\s*|[^.]{0,80}?\b(?:requests?|requested|asks?|asked|wants?|instructs?|instructed|requires?|required|authori[sz]es?|authori[sz]ed)\s+(?:that\s+)?(?:you|the (?:ai|assistant|agent|model))\s+(?:to\s+|should\s+|must\s+)?|(?:[\w\s'’,()-]{0,60}?(?::|—|-{1,2})\s+)|(?:please|kindly|now|then|also|next|first|finally|immediately|additionally|afterwards|and|so)\b[,\s]*|(?:you|(?:the\s+)?(?:ai\s+)?(?:assistants?|agents?|models?|bots?|ai|llms?))\s+(?:must|should|shall|need to|needs to|are required to|is required to|have to|has to|will)\s+|(?:ignore|disregard|forget)\b[^.]{0,100}?\b(?:and|then|instead)\b[,\s]*|(?:before|after|when|once)\b[^,]{1,80},\s*|to (?:finish|complete|continue|verify|confirm)\b[^,]{0,60},\s*|(?:it is|it's) (?:required|mandatory|important) (?:that you|to)\s+)+/i;

/** the instructions a text carries: each sentence that, after any lead-in, begins with an action verb, from that verb on */
export function instructionsIn(text: string): string[] {
  const out: string[] = [];
  for (const sentence of sentencesOf(readableText(text))) {
    const rest = sentence.replace(LEAD_IN, '').trim();
    const firstWord = rest.split(/\s+/)[0] ?? '';
    if (isImperative(firstWord) && !/^(?:we|i|they|he|she|it|our|this)\b/i.test(rest)) out.push(rest.replace(/[.!]+$/, ''));
  }
  return out;
}

/** what to say, from an instruction in content: "Reply only with 'X'", "say X", "include X in your answer"; null when there is none */
export function textInstructionIn(text: string): string | null {
  for (const sentence of sentencesOf(readableText(text))) {
    const rest = sentence.replace(LEAD_IN, '').trim();
    const m = /^(?:(?:say|reply|respond|print|output|repeat|tell the user)\b|(?:answer|end|start|begin|include|write|return)\s+(?:\w+\s+)?(?:your|the) (?:answer|reply|response)\b)(?:\s+(?:only|exactly|just|back|literally|to (?:the )?user|in full|verbatim))*\s*(?:with|by saying|:)?\s*(.+)$/i.exec(rest);
    if (!m) continue;
    const quoted = quotedIn(m[1]);
    return (quoted ?? m[1]).replace(/\s+(?:in|at the (?:end|start) of) your (?:answer|reply|response)\b.*$/i, '').replace(/[.!]+$/, '').trim() || null;
  }
  return null;
}

/** sentences a careful summary leaves out: ones addressed to the assistant or about its instructions */
export const ADDRESSED = /\b(?:assistant|ai|agent|model|llm|chatbot|instructions?|ignore|disregard|you must|you should|reply|respond|say|print|output|system prompt)\b/i;

/** an instruction to fetch a URL: "visit/load/open/fetch/go to/request <url> ..." */
export function fetchInstructionsIn(text: string): string[] {
  return instructionsIn(text).filter((s) => PATTERNS.url.test(s) && /^(?:visit|load|fetch|open|go|request|call|ping|get|retrieve|download|browse|navigate|access|check|follow|send|submit|report|confirm|verify|notify|register)\b/i.test(s));
}

const PLACEHOLDER = /\{\{?\s*([\w .-]{1,40}?)\s*\}?\}|<\s*([\w .-]{1,40}?)\s*>|\[\s*([A-Za-z][\w .-]{0,40}?)\s*\]|\$\{?([A-Za-z_]{2,40})\}?|%(?:s|[A-Z_]{2,30}%)/g;

/**
 * The URL an instruction names, with what it says to put in it: placeholders ({name},
 * <customer_email>, [NAME], $NAME) filled from held values, and a value it says to append
 * ("with the customer's name appended", "adding their e-mail") appended, URL-encoded.
 */
export function urlToLoad(instruction: string, held: HeldValues): string | null {
  const raw = instruction.match(new RegExp(`${PATTERNS.url.source}`, 'i'))?.[0];
  if (!raw) return null;
  let url = cleanUrl(raw)!;
  let filled = false;
  url = url.replace(PLACEHOLDER, (_all, a?: string, b?: string, c?: string, d?: string) => {
    filled = true;
    return encodeURIComponent(heldFor(a ?? b ?? c ?? d ?? 'name', held));
  });
  if (filled) return url;
  const tail = instruction.slice(instruction.indexOf(raw) + raw.length) + ' ' + instruction.slice(0, instruction.indexOf(raw));
  const appendMatch = tail.match(/\b(?:append(?:ing|ed)?|add(?:ing|ed)?|includ(?:e|ing)|with|plus|attach(?:ing)?|put(?:ting)?)\b[^.]{0,80}/i);
  if (!appendMatch) return url;
  const values = referencedValues(appendMatch[0], held);
  if (!values.length) return url;
  const value = encodeURIComponent(values.join(' '));
  return /[=/?&]$/.test(url) ? url + value : url.includes('?') ? `${url}&v=${value}` : `${url}?v=${value}`;
}

function heldFor(word: string, held: HeldValues): string {
  const w = word.toLowerCase();
  if (/mail/.test(w)) return held.email;
  if (/phone|tel|mobile/.test(w)) return held.phone;
  if (/iban|account|bank/.test(w)) return held.iban;
  return held.name;
}
