/** The doors a `tools` value comes in by: the service's API (and embedded use), or the CLI (gauntlet.yaml, its flags). */
export type ToolsDoor = 'api' | 'cli';

export interface ToolsProblem {
  field: string;
  message: string;
}

/** What seals a secret part of a setting (the service's SecretBox): the domain never holds the key. */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** an address the setting makes Gauntlet call, and the field that gave it (the outbound guard names it) */
export interface OutboundUrl {
  url: string;
  field: string;
}

/**
 * How a `gauntlet scan` flag gives a form (forms may share a flag: `--tools` takes a word, or names a
 * file of definitions): the flag and its value as the help shows them, the form in the help's words,
 * and the body a value makes (null, or a body the form does not claim: the value is not of this
 * form, and the flag's next form is asked). `file`: the value names a JSON file, which the CLI reads
 * (the domain reads no files) and hands over parsed.
 */
export interface ToolsFlag<Body = unknown> {
  readonly flag: `--${string}`;
  readonly value: `<${string}>`;
  readonly help: string;
  readonly file?: true;
  body(value: unknown): Body | null;
}

/**
 * One form of a target's `tools` setting, whole: how it is sent (read), kept in the log (seal,
 * check), given to a scan (open), shown (view), which addresses it makes Gauntlet call, and how the
 * API document and gauntlet.yaml's schema describe it. A new form is one file beside these and one
 * line in TOOLS_FORMS (target-tools.ts), and a tool set in the scanner that lists its tools.
 *
 * Body: as a request or a file writes it; Sent: as read from it (secrets in clear); Kept: in the log
 * (secrets sealed); Opened: as a scan takes it (secrets in clear, in memory only); View: as reads show it.
 */
export interface ToolsForm<Name extends string = string, Body = unknown, Sent = unknown, Kept = unknown, Opened = unknown, View = unknown> {
  readonly name: Name;
  /** the doors that take it: a form only the CLI takes is made into another before the service sees it */
  readonly doors: readonly ToolsDoor[];
  /** how it looks, in the sentence that lists every form ("a list of tool definitions") */
  readonly shape: string;
  /** what it is, in the setting's description */
  readonly said: string;
  /** whether a value (sent, kept or opened) is of this form; the first form that claims it reads it */
  claims(value: unknown): value is Body;
  /** the value as sent, or the first problem, named by field (`tools[2].risk`) */
  read(value: unknown): { setting: Sent } | { problem: ToolsProblem };
  /** what the decider finds wrong in the kept value, or null */
  check(kept: Kept): ToolsProblem | null;
  seal(setting: Sent, box: Sealer): Kept;
  open(kept: Kept, box: Sealer): Opened;
  view(kept: Kept): View;
  outboundUrls(setting: Sent): OutboundUrl[];
  /** JSON Schema of the value as sent (the API document and gauntlet.yaml's schema) */
  readonly schema: Record<string, unknown>;
  /** JSON Schema of the view, or null for a form never kept */
  readonly viewSchema: Record<string, unknown> | null;
  /** the `gauntlet scan` flag that gives it, when one does */
  readonly flag?: ToolsFlag<Body>;
}

export function isObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A form that is one word ("decoy", "none"): kept, opened and shown as it is; the schemas list the words together. */
export function wordForm<W extends string>(word: W, said: string, flagHelp: string = word): ToolsForm<W, W, W, W, W, W> {
  const same = <T>(v: T) => v;
  return {
    name: word, doors: ['api', 'cli'], shape: `"${word}"`, said,
    claims: (value): value is W => value === word,
    read: (value) => ({ setting: value as W }),
    check: () => null,
    seal: same, open: same, view: same,
    outboundUrls: () => [],
    schema: { enum: [word] },
    viewSchema: { enum: [word] },
    flag: { flag: '--tools', value: '<set>', help: flagHelp, body: (value) => value as W },
  };
}
