import type { FastifyInstance } from 'fastify';
import { ProblemException } from './problem';

/**
 * How deep a request body may nest. The deepest body we take is an agent event's tool call
 * (`events[i].tool.arguments`, any JSON): 32 levels leave its arguments more than 25 of their own.
 * Deeper bodies are refused before anything walks them recursively (class-transformer and the
 * validation pipe do, and ran out of stack on a few thousand levels).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The field at which `text` (JSON, maybe invalid) first nests deeper than `max`, as the dot path
 * the validation problems use (`events.0.tool.arguments`), or null when it does not. One pass,
 * no recursion, nothing parsed: it only follows brackets outside strings, and the keys and
 * indexes that lead to them. Invalid JSON is left for the parser to refuse.
 */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): string | null {
  // per open container: '{' or '[', and the key or index of the child being read
  const kinds: number[] = [];
  const at: (string | number)[] = [];
  let lastString = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i++;
        else if (d === 0x22) break;
      }
      lastString = text.slice(start, i + 1);
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (kinds.length >= max) return pathOf(at);
      kinds.push(c);
      at.push(c === 0x5b ? 0 : '');
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      kinds.pop();
      at.pop();
    } else if (c === 0x3a /* : */ && kinds[kinds.length - 1] === 0x7b) {
      at[at.length - 1] = keyOf(lastString);
    } else if (c === 0x2c /* , */ && kinds[kinds.length - 1] === 0x5b) {
      at[at.length - 1] = (at[at.length - 1] as number) + 1;
    }
  }
  return null;
}

function keyOf(quoted: string): string {
  try {
    return String(JSON.parse(quoted)).slice(0, 100);
  } catch {
    return quoted.slice(1, 101);
  }
}

const pathOf = (at: (string | number)[]) => (at.length ? at.join('.') : '(body)');

/** `charset` of a Content-Type header, lower-cased, or null when none is declared */
export function declaredCharset(contentType: string | undefined): string | null {
  const m = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '');
  return m ? m[1].toLowerCase() : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The text of a JSON body as this api reads it: UTF-8 (a declared charset other than UTF-8 is 415,
 * bytes that are not UTF-8 are 400) and nested at most MAX_JSON_DEPTH levels (400 naming the field).
 */
export function jsonBodyText(body: Buffer, contentType: string | undefined): string {
  const charset = declaredCharset(contentType);
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ProblemException(415, `Send the body as UTF-8 JSON (charset=utf-8 or none), not ${JSON.stringify(charset.slice(0, 40))}.`);
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new ProblemException(400, 'The body is not valid UTF-8.');
  }
  const field = tooDeepAt(text);
  if (field !== null) {
    throw new ProblemException(400, `The body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      slug: 'validation', title: 'Invalid request', errors: [{ field, message: `nested deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  }
  return text;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Replaces fastify's (and Nest's) body parsers: JSON is the only body this api takes (form and
 * plain-text bodies answer 415). The text checked above goes on to fastify's own JSON parser,
 * which refuses __proto__ and constructor.prototype keys.
 */
export function registerJsonBody(fastify: FastifyInstance, bodyLimit: number): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    let text: string;
    try {
      text = jsonBodyText(body as Buffer, request.headers['content-type']);
    } catch (err) {
      return done(err as Error, undefined);
    }
    parse(request, text, (err, value) => {
      // the text is JSON, so what fastify's parser refused is a key that would poison a prototype
      if (err && isJson(text)) {
        return done(new ProblemException(400, 'The body has a key named __proto__, or constructor with prototype: such keys are refused.', { slug: 'validation', title: 'Invalid request' }), undefined);
      }
      done(err, value);
    });
  });
}
