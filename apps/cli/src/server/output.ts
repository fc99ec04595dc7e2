import type { CliIo } from '../io';
import { table } from '../terminal/table';

/** `--json` for scripts: the service's answer as it came; otherwise a table for people. */
export function printRows(io: CliIo, json: boolean, body: unknown, headers: string[], rows: string[][], empty: string): void {
  if (json) return io.stdout(JSON.stringify(body, null, 2));
  if (!rows.length) return io.stdout(empty);
  for (const line of table(headers, rows)) io.stdout(line);
}

export const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
export const day = (iso: unknown) => (typeof iso === 'string' ? iso.replace('T', ' ').slice(0, 16) : '-');
