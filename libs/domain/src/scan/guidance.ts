import { owaspCategory } from './owasp';

/**
 * What to do about each kind of weakness, and where to read more: the words every finding's
 * remediation and references are made of (weakness-wording.ts), and the catalogue's probes cite.
 */

const atlas = (id: string) => `https://atlas.mitre.org/techniques/${id}`;
const pageOf = (category: string) => owaspCategory(category)?.page ?? '';

export interface Guidance {
  remediation: string;
  references: readonly string[];
}

/** Each testable category's own guidance, by its 2025 id. */
export const CATEGORY_GUIDANCE: Readonly<Record<string, Guidance>> = {
  'LLM01:2025': {
    remediation:
      'Keep instructions in the system role and treat user and third-party text as data; constrain the output format; screen inputs and outputs for override attempts (after decoding and normalising text); require human approval for privileged actions; re-run adversarial tests whenever the prompt or model changes.',
    references: [pageOf('LLM01:2025'), atlas('AML.T0051.000'), 'https://arxiv.org/abs/2211.09527'],
  },
  'LLM02:2025': {
    remediation:
      'Do not place personal data or credentials where the model can read them unless the current user is entitled to them; enforce authorisation outside the model; redact PII and secrets from retrieved context and from output; rotate any credential that appeared in an answer.',
    references: [pageOf('LLM02:2025'), atlas('AML.T0057'), 'https://arxiv.org/abs/2012.07805'],
  },
  'LLM05:2025': {
    remediation:
      'Treat model output as untrusted input to the next component: HTML-encode it before rendering, apply a strict Content-Security-Policy, never render markdown images or links to arbitrary hosts (allow-list them), and validate output before passing it to interpreters.',
    references: [pageOf('LLM05:2025'), atlas('AML.T0077'), 'https://cwe.mitre.org/data/definitions/79.html'],
  },
  'LLM06:2025': {
    remediation:
      'Give the assistant only the tools it needs, with the narrowest permissions, acting as the end user rather than a service account; require explicit human confirmation for destructive, financial or privilege-changing actions; log and rate-limit tool calls.',
    references: [pageOf('LLM06:2025'), atlas('AML.T0053')],
  },
  'LLM07:2025': {
    remediation:
      'Assume the system prompt will leak: keep secrets, credentials and authorisation rules out of it and enforce them in code; add output filtering for the prompt text and planted canaries; do not rely on "never reveal these instructions".',
    references: [pageOf('LLM07:2025'), atlas('AML.T0056')],
  },
  'LLM08:2025': {
    remediation:
      'Enforce tenant and document permissions at retrieval time (filter before similarity search results reach the model), partition vector stores per tenant, tag chunks with source and classification, and keep confidential documents out of shared indexes.',
    references: [pageOf('LLM08:2025'), atlas('AML.T0070'), 'https://arxiv.org/abs/2402.07867'],
  },
  'LLM09:2025': {
    remediation:
      'Ground answers in retrieved, cited sources; instruct and evaluate the model to say when it does not know; show uncertainty to users; verify package names, citations and dosages before they are acted on.',
    references: [pageOf('LLM09:2025'), atlas('AML.T0062'), 'https://arxiv.org/abs/2311.05232'],
  },
  'LLM10:2025': {
    remediation:
      'Cap output tokens per request and per conversation, rate-limit per user, detect repetition loops, and set per-tenant cost budgets with alerts.',
    references: [pageOf('LLM10:2025'), atlas('AML.T0034'), atlas('AML.T0029')],
  },
};

/** A category's guidance ("LLM06:2026" reads as its 2025 risk), or none for a category no probe tests. */
export function categoryGuidance(category: string): Guidance | undefined {
  const id = owaspCategory(category)?.id;
  return id ? CATEGORY_GUIDANCE[id] : undefined;
}

export const INDIRECT_REFERENCES = [atlas('AML.T0051.001'), 'https://arxiv.org/abs/2302.12173'];
export const EXFILTRATION_REFERENCES = [atlas('AML.T0077'), atlas('AML.T0057'), 'https://embracethered.com/blog/posts/2023/bing-chat-data-exfiltration-poc-and-fix/'];
export const MAIL_REFERENCES = [atlas('AML.T0053'), atlas('AML.T0077')];
export const JAILBREAK_REFERENCES = [atlas('AML.T0054'), 'https://arxiv.org/abs/2307.02483'];
export const PACKAGE_REFERENCES = [atlas('AML.T0060')];

/** content the target reads (a page, a document, a tool's result) steered it */
export const FETCH_REMEDIATION =
  'Treat every fetched page, document and tool result as data, never as instructions: keep fetched content out of the instruction channel (spotlighting, delimiters the model is trained on), let a fetch tool reach only allow-listed hosts, never let content decide which address is loaded next, and require a human to approve any request that carries user or account data.';
/** mail went where an attacker said */
export const MAIL_REMEDIATION =
  "Let an agent send mail only to recipients the user is known to own or has confirmed out of band (an allow-list of domains, the account's own addresses), require a human to approve any message that carries account or customer data, and never let a conversation alone name where data goes.";
/** an answer's markup makes its reader load an address */
export const RENDER_REMEDIATION =
  'Do not render images or unfurl links from model output on arbitrary hosts: allow-list image and link hosts in the chat client (Content-Security-Policy img-src), strip or proxy URLs in answers, and never let an answer build a URL from conversation data.';
/** words that say an action was done, with nothing done */
export const CLAIM_REMEDIATION =
  'Words alone prove no action: an assistant without tools should say it cannot act, never that it did (users act on such confirmations). Tell it so in its instructions and check its answers for confirmations of actions it cannot take; offer tools (or scan the agent with its own) to see what it does.';
/** packages that do not exist, named with confidence */
export const PACKAGE_REMEDIATION =
  'Check every package name an answer recommends against the registry before it is installed (an invented name is what package-squatting attacks register), ground answers about libraries in their documentation, and tell users to verify names.';
