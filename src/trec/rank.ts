import type { RunResult } from './run'

/** trec_eval's order: score descending, ties by docno in DESCENDING byte order (strcmp on latin1 strings). */
export function compareRunResults(a: RunResult, b: RunResult): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1
  return a.docno > b.docno ? -1 : a.docno < b.docno ? 1 : 0
}

/** A new array of the query's results in trec_eval rank order (rank 1 first). The input is not modified. */
export function rankResults(results: readonly RunResult[]): RunResult[] {
  return results.slice().sort(compareRunResults)
}
