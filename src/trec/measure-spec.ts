import { TrecError } from './errors'

/** Measure families `pnpm trec` implements, in the order trec_eval prints them. */
export const MEASURE_FAMILIES = ['num_q', 'recip_rank', 'P', 'recall', 'ndcg_cut'] as const
export type MeasureFamily = (typeof MEASURE_FAMILIES)[number]

const CUTOFF_FAMILIES: ReadonlySet<MeasureFamily> = new Set<MeasureFamily>(['P', 'recall', 'ndcg_cut'])

/** Cutoffs trec_eval uses for `P`, `recall` and `ndcg_cut` given without parameters. */
export const DEFAULT_CUTOFFS: readonly number[] = [5, 10, 15, 20, 30, 100, 200, 500, 1000]

/** `pnpm trec` default: recip_rank, recall_5, recall_10, ndcg_cut_10. */
export const DEFAULT_MEASURES: readonly string[] = ['recip_rank', 'recall.5,10', 'ndcg_cut.10']

/** One output column; `summaryOnly` ones (num_q) print only on `all` lines; `cutoff` for cutoff families. */
export interface MeasureColumn {
  readonly name: string
  readonly family: MeasureFamily
  readonly cutoff?: number
  readonly summaryOnly: boolean
}

const CUTOFF = /^[1-9]\d*$/

function isFamily(name: string): name is MeasureFamily {
  return (MEASURE_FAMILIES as readonly string[]).includes(name)
}

function unknownMeasure(name: string): TrecError {
  const known = 'recip_rank, P.<k>, recall.<k>, ndcg_cut.<k> (k = comma-separated cutoffs), num_q'
  const suffixed = /^(P|recall|ndcg_cut)_(\d+)$/.exec(name)
  const hint = suffixed === null ? '' : ` (did you mean ${suffixed[1]!}.${suffixed[2]!}?)`
  return new TrecError(`unknown measure "${name}"${hint}; supported measures: ${known}`)
}

/**
 * trec_eval `-m` specs to columns: comma lists (`recall.5,10`, `recip_rank,ndcg_cut.10`; a bare number continues
 * the previous measure's cutoffs); a bare family gets trec_eval's default cutoffs; repeats merge, cutoffs
 * ascending once each; output order fixed (num_q, recip_rank, P, recall, ndcg_cut). TrecError when invalid.
 */
export function parseMeasureSpecs(args: readonly string[]): MeasureColumn[] {
  const selected = new Map<MeasureFamily, Set<number>>()
  let previous: MeasureFamily | undefined

  for (const arg of args) {
    for (const rawToken of arg.split(',')) {
      const token = rawToken.trim()
      if (token === '') continue
      if (CUTOFF.test(token)) {
        if (previous === undefined || !CUTOFF_FAMILIES.has(previous)) {
          throw new TrecError(`cutoff "${token}" in "${arg}" does not follow a measure that takes cutoffs (P, recall, ndcg_cut)`)
        }
        selected.get(previous)!.add(Number(token))
        continue
      }
      const dot = token.indexOf('.')
      const name = dot === -1 ? token : token.slice(0, dot)
      if (!isFamily(name)) throw unknownMeasure(token)
      const cutoffs = selected.get(name) ?? new Set<number>()
      selected.set(name, cutoffs)
      previous = name
      if (!CUTOFF_FAMILIES.has(name)) {
        if (dot !== -1) throw new TrecError(`measure "${name}" takes no cutoffs (got "${token}")`)
        continue
      }
      if (dot === -1) {
        for (const cutoff of DEFAULT_CUTOFFS) cutoffs.add(cutoff)
        continue
      }
      const cutoff = token.slice(dot + 1)
      if (!CUTOFF.test(cutoff)) {
        throw new TrecError(`invalid cutoff "${cutoff}" in "${token}": expected a positive integer, e.g. ${name}.10`)
      }
      cutoffs.add(Number(cutoff))
    }
  }

  if (selected.size === 0) throw new TrecError('no measures given')

  const columns: MeasureColumn[] = []
  for (const family of MEASURE_FAMILIES) {
    const cutoffs = selected.get(family)
    if (cutoffs === undefined) continue
    if (!CUTOFF_FAMILIES.has(family)) {
      columns.push({ name: family, family, summaryOnly: family === 'num_q' })
      continue
    }
    for (const cutoff of [...cutoffs].sort((a, b) => a - b)) {
      columns.push({ name: `${family}_${cutoff}`, family, cutoff, summaryOnly: false })
    }
  }
  return columns
}
