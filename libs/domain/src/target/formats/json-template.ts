import { TargetProtocolError } from '../target-errors';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * Fills a target's JSON body template: `{{prompt}}` becomes the message escaped for use inside
 * a JSON string ("{{prompt}}", or "Question: {{prompt}}" in the template), or a whole JSON string
 * where it stands for a value on its own ({"input": {{prompt}}}); `{{messages}}` becomes the
 * whole conversation as a JSON array of {role, content}. The result must be valid JSON.
 */
export function fillBodyTemplate(template: string, turns: ChatTurn[]): string {
  const prompt = turns.length ? turns[turns.length - 1].content : '';
  const body = template
    // a bare {{prompt}} where a JSON value goes ({"input": {{prompt}}}) becomes a whole string
    .replace(/([:[,]\s*)\{\{\s*prompt\s*\}\}(?=\s*[,}\]])/g, (_, before: string) => before + JSON.stringify(prompt))
    .replace(/\{\{\s*prompt\s*\}\}/g, () => JSON.stringify(prompt).slice(1, -1))
    .replace(/\{\{\s*messages\s*\}\}/g, () => JSON.stringify(turns));
  try {
    JSON.parse(body);
  } catch {
    throw new TargetProtocolError('http.body_template does not give valid JSON once filled in', { kind: 'settings', field: 'http.body_template' });
  }
  return body;
}

/** the value at a dot path such as `choices.0.message.content` (array indices as numbers) */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** the answer text found at `path`, or a TargetProtocolError naming the path */
export function answerAtPath(value: unknown, path: string): string {
  const found = valueAtPath(value, path);
  if (typeof found === 'string') return found;
  if (typeof found === 'number' || typeof found === 'boolean') return String(found);
  if (found !== undefined && found !== null) return JSON.stringify(found);
  throw new TargetProtocolError(`the answer has nothing at response_path "${path}"`, { kind: 'settings', field: 'http.response_path' });
}
