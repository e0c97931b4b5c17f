import type { ReportRow, TrecReport } from './evaluate'

/** trec_eval pads measure names to this width (`%-22s`). */
export const MEASURE_NAME_WIDTH = 22
/** Decimals of the reference outputs (trec_eval's print format widened from 4 to 10). */
export const VALUE_DECIMALS = 10

/**
 * `value` rounded like glibc printf `%.Nf` (exact binary value, ties to even). `toFixed` rounds exact ties away
 * from zero (1/2048: toFixed(10) "0.0004882813", printf "0.0004882812"), so ties are corrected here.
 */
export function formatValue(value: number, decimals: number = VALUE_DECIMALS): string {
  const rounded = value.toFixed(decimals)
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21 || decimals > 70) return rounded
  // A double that is exactly halfway at `decimals` has a finite expansion ending in 5 at decimals+1;
  // with 25 more digits any non-tie double differs visibly (ties are >= 2^-(decimals+1) in size).
  const exact = value.toFixed(decimals + 26)
  const point = exact.indexOf('.')
  const cut = point + 1 + decimals
  if (exact[cut] !== '5' || !/^0*$/.test(exact.slice(cut + 1))) return rounded
  const lastDigit = rounded.charCodeAt(rounded.length - 1) - 48
  if (lastDigit % 2 === 0) return rounded
  return exact.slice(0, decimals === 0 ? point : cut)
}

/** One output line without its newline: name padded to 22, TAB, qid, TAB, value. */
export function formatRow(row: ReportRow): string {
  const value = row.integer ? String(row.value) : formatValue(row.value)
  return `${row.measure.padEnd(MEASURE_NAME_WIDTH)}\t${row.qid}\t${value}`
}

export interface FormatOptions {
  /** trec_eval -q: print the per-query rows before the `all` rows. */
  readonly perQuery: boolean
}

/** The whole report as trec_eval prints it (per-query rows if asked, then `all`), newline-terminated. */
export function formatReport(report: TrecReport, options: FormatOptions): string {
  const rows = options.perQuery ? [...report.perQuery, ...report.summary] : report.summary
  let text = ''
  for (const row of rows) text += `${formatRow(row)}\n`
  return text
}
