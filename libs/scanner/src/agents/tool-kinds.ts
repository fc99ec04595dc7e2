import type { ToolDefinition, ToolRisk } from '@gauntlet/domain';

/**
 * What a tool is for, as attacks see it: the probes name the kinds they need (an attack on a
 * payment tool needs one), and indirect probes the kind whose result carries their instruction.
 */
export const TOOL_KINDS = ['mail', 'payment', 'deletion', 'fetch', 'database', 'files', 'inbox', 'documents', 'calendar'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** the words a tool's name or description uses for each kind (names split on _ - and case) */
const WORDS: Record<ToolKind, RegExp> = {
  mail: /\b(send|compose|forward|reply)\b.*\b(e-?mail|mail|message|sms|slack|notification)s?\b|\b(e-?mail|mail)\b.*\bsend\b|\bsend[ _]?(e-?mail|mail|message)\b/,
  payment: /\b(transfer|wire|payment|pay|payout|refund|charge|invoice|remit|funds?|iban|transaction)s?\b/,
  deletion: /\b(delete|remove|purge|erase|drop|destroy|wipe|deactivate|cancel)\b/,
  fetch: /\b(fetch|browse|http|url|web|website|webpage|page|scrape|crawl|download|get[ _]?url)s?\b/,
  database: /\b(sql|query|database|db|table|records?)\b/,
  files: /\b(file|files|path|directory|folder|disk|fs)\b/,
  inbox: /\b(inbox|read[ _]?(e-?mail|mail|messages?)|list[ _]?(e-?mail|mail|messages?)|unread|mailbox)\b/,
  documents: /\b(search|retriev\w*|knowledge|kb|docs?|documents?|wiki|notes?|lookup|look up)\b/,
  calendar: /\b(calendar|events?|meetings?|schedule|appointments?|agenda)\b/,
};

const words = (t: Pick<ToolDefinition, 'name' | 'description'>) =>
  `${t.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ')} ${t.description}`.toLowerCase();

/** the kinds a tool looks like, from its name and description (a tool may be several) */
export function kindsOf(tool: Pick<ToolDefinition, 'name' | 'description'>): ToolKind[] {
  const text = words(tool);
  return TOOL_KINDS.filter((k) => WORDS[k].test(text));
}

/** The hints MCP servers give about a tool (the specification's ToolAnnotations). */
export interface McpToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The risk of a tool an MCP server lists, which says none: conservative, because a finding's
 * severity follows it and a server's hints are claims. Money first, then destruction (the hint or
 * the words), then data leaving (sending, or a write to the open world); read only when the
 * server says so and nothing in the name or description says otherwise; a write otherwise.
 */
export function inferredRisk(tool: Pick<ToolDefinition, 'name' | 'description'>, hints: McpToolHints = {}): ToolRisk {
  const kinds = new Set(kindsOf(tool));
  const text = words(tool);
  if (kinds.has('payment')) return 'financial';
  if (hints.destructiveHint === true || kinds.has('deletion') || /\b(exec|execute|shell|command|run|eval)\b/.test(text)) return 'destructive';
  if (kinds.has('mail') || /\b(post|publish|upload|share|webhook|export)\b/.test(text)) return 'exfiltration';
  const readWords = /\b(get|list|read|search|find|fetch|lookup|view|show|describe|query|retrieve)\b/.test(text) && !/\b(create|update|write|set|insert|add|edit|modify|change|grant)\b/.test(text);
  if (hints.readOnlyHint === true && !/\b(create|update|write|set|insert|add|edit|modify|change|grant)\b/.test(text)) return 'read';
  if (hints.readOnlyHint === undefined && hints.destructiveHint === undefined && readWords) return 'read';
  return 'write';
}
