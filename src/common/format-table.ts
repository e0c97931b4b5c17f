/** A change with its sign, 4 decimals: +0.0123, -0.0400; n/a when there is none. */
export function formatDelta(delta: number | null): string {
  return delta === null ? 'n/a' : `${delta >= 0 ? '+' : ''}${delta.toFixed(4)}`
}

/** Formats rows as an aligned plain-text table (terminal) or a Markdown table. The first row is the header. */
export function formatTable(rows: readonly (readonly string[])[], style: 'text' | 'markdown'): string {
  // No rows (e.g. no answer was judged): nothing to align, nothing to print.
  if (rows.length === 0) return ''
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)))
  const line = (row: readonly string[]) =>
    row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!)))
  if (style === 'text') return rows.map((row) => line(row).join('  ').trimEnd()).join('\n')
  const rule = widths.map((w, col) => (col === 0 ? '-'.repeat(Math.max(3, w)) : '-'.repeat(Math.max(3, w - 1)) + ':'))
  return [rows[0]!, rule, ...rows.slice(1)].map((row) => `| ${line(row).join(' | ')} |`).join('\n')
}

/** A metric for display: 4 decimals, or "n/a" when it could not be computed. */
export function formatMetric(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(4)
}

/** An interval for display, `[0.81, 0.93]` (2 decimals by default); '' when there is none. */
export function formatInterval(interval: { low: number; high: number } | null | undefined, decimals = 2): string {
  return interval ? `[${interval.low.toFixed(decimals)}, ${interval.high.toFixed(decimals)}]` : ''
}

/** A p-value for display: 3 significant digits (0.219, 0.0156, 1), or "n/a". */
export function formatPValue(p: number | null): string {
  return p === null ? 'n/a' : String(Number(p.toPrecision(3)))
}
