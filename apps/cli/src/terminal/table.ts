/** A plain-text table: columns as wide as their widest cell (capped), the last one wrapping is left to the terminal. */
export function table(headers: string[], rows: string[][], maxWidth = 60): string[] {
  const cut = (s: string) => (s.length > maxWidth ? s.slice(0, maxWidth - 1) + '…' : s);
  const cells = [headers, ...rows].map((r) => r.map((c, i) => (i === r.length - 1 ? c : cut(c.replace(/\s+/g, ' ')))));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(cells[0]), widths.map((w, i) => '-'.repeat(i === widths.length - 1 ? Math.min(w, maxWidth) : w)).join('  '), ...cells.slice(1).map(line)];
}
