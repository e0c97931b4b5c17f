import { compareBytes, displayId } from './byte-string'
import { EXIT_MISSING_QUERY, TrecError } from './errors'
import type { MeasureColumn } from './measure-spec'
import { ndcgCut } from './measures/ndcg-cut'
import { precisionAt } from './measures/precision'
import { recallAt } from './measures/recall'
import { reciprocalRank } from './measures/recip-rank'
import type { Qrels } from './qrels'
import { rankResults } from './rank'
import { isRelevant, UNJUDGED } from './relevance'
import type { Run, RunResult } from './run'

/** One printed value: `measure<TAB>qid<TAB>value`; `integer` values (num_q) print without decimals. */
export interface ReportRow {
  readonly measure: string
  readonly qid: string
  readonly value: number
  readonly integer: boolean
}

export interface TrecReport {
  /** Per-query rows, queries in byte order of qid, columns in measure order (trec_eval -q). */
  readonly perQuery: readonly ReportRow[]
  /** The `all` rows: means over the evaluated queries (num_q = how many). */
  readonly summary: readonly ReportRow[]
  /** Queries with per-query rows, in output order (with averageComplete: every qrels query). */
  readonly evaluatedQueries: readonly string[]
  /** Qrels queries without results in the run, evaluated as empty rankings (only with averageComplete). */
  readonly missingQueries: readonly string[]
}

export interface EvaluateOptions {
  /** trec_eval -c: average over every qrels query, counting those absent from the run as 0. */
  readonly averageComplete: boolean
}

/** What the measures see of one query: its ranked relevance and its qrels-side totals. */
interface QueryEvidence {
  readonly rankedRels: readonly number[]
  readonly relevantGains: readonly number[]
}

function measureValue(column: MeasureColumn, evidence: QueryEvidence): number {
  const k = column.cutoff ?? 0
  switch (column.family) {
    case 'recip_rank':
      return reciprocalRank(evidence.rankedRels)
    case 'P':
      return precisionAt(evidence.rankedRels, k)
    case 'recall':
      return recallAt(evidence.rankedRels, evidence.relevantGains.length, k)
    case 'ndcg_cut':
      return ndcgCut(evidence.rankedRels, evidence.relevantGains, k)
    case 'num_q':
      return 1
  }
}

const NO_RESULTS: readonly RunResult[] = []

function listQueries(qids: readonly string[]): string {
  const shown = qids.slice(0, 5).map(displayId).join(', ')
  return qids.length > 5 ? `${shown} and ${qids.length - 5} more` : shown
}

/**
 * trec_eval semantics: only qrels queries are evaluated; results ranked by rank.ts; an unjudged docno has rel -1;
 * a qrels query without results is an error (exit code 4) unless `averageComplete` (-c), which scores it as an
 * empty ranking (rows of 0, as trec_eval 10 -c -q); `all` is the plain mean over the evaluated queries.
 */
export function evaluateRun(qrels: Qrels, run: Run, columns: readonly MeasureColumn[], options: EvaluateOptions): TrecReport {
  const qids = [...qrels.keys()].sort(compareBytes)
  const missingQueries = qids.filter((qid) => !run.has(qid))
  if (missingQueries.length > 0 && !options.averageComplete) {
    const noun = missingQueries.length === 1 ? 'query' : 'queries'
    throw new TrecError(
      `qrels ${noun} ${listQueries(missingQueries)} ${missingQueries.length === 1 ? 'has' : 'have'} no results in the run ` +
        '(trec_eval stops with exit code 4); pass -c to average over all qrels queries, counting missing ones as 0',
      EXIT_MISSING_QUERY,
    )
  }

  const perQueryColumns = columns.filter((column) => !column.summaryOnly)
  const sums = new Array<number>(perQueryColumns.length).fill(0)
  const perQuery: ReportRow[] = []
  const evaluatedQueries: string[] = []

  for (const qid of qids) {
    const results = run.get(qid) ?? (options.averageComplete ? NO_RESULTS : undefined)
    if (results === undefined) continue
    const judgements = qrels.get(qid)!
    const rankedRels = rankResults(results).map((result) => judgements.get(result.docno) ?? UNJUDGED)
    const relevantGains: number[] = []
    for (const rel of judgements.values()) if (isRelevant(rel)) relevantGains.push(rel)
    const evidence: QueryEvidence = { rankedRels, relevantGains }
    evaluatedQueries.push(qid)
    perQueryColumns.forEach((column, index) => {
      const value = measureValue(column, evidence)
      sums[index]! += value
      perQuery.push({ measure: column.name, qid, value, integer: false })
    })
  }

  const queryCount = evaluatedQueries.length
  if (queryCount === 0) throw new TrecError('no queries to evaluate: the qrels file has no judgements')

  const summary = columns.map((column): ReportRow => {
    if (column.family === 'num_q') return { measure: column.name, qid: 'all', value: queryCount, integer: true }
    const index = perQueryColumns.indexOf(column)
    return { measure: column.name, qid: 'all', value: sums[index]! / queryCount, integer: false }
  })

  return {
    perQuery,
    summary,
    evaluatedQueries,
    missingQueries: options.averageComplete ? missingQueries : [],
  }
}
