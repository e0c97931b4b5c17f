import type { Interval } from '../contract/interval-schema.ts'
import type { RunInfo } from '../contract/report-schema.ts'

/** A run's latency and cost figures, as its report's `run` and a baseline's run.json hold them. */
export type RunFigures = Pick<RunInfo, 'latencyMs' | 'stageLatencyMs' | 'costPerQuestion'>

/** One figure of a run against an earlier run's. */
export interface FigureRise {
  name: string
  before: number
  after: number
  afterInterval: Interval | null
  tolerance: number
  /** Risen beyond the tolerance with the interval clear of it: after's interval lies wholly above before x (1 + tolerance). */
  risen: boolean
}

/**
 * The p95 latency of the whole call and of each pipeline stage both runs timed (latencyTolerance), and the USD per
 * question (costTolerance), of `after` against `before`; a figure with no tolerance, or missing from either run, is left out.
 */
export function latencyCostRises(
  before: RunFigures,
  after: RunFigures,
  tolerances: { latency: number | null; cost: number | null },
): FigureRise[] {
  const stages = Object.keys(after.stageLatencyMs).filter((name) => before.stageLatencyMs[name])
  const candidates: { name: string; b?: number; a?: number; interval: Interval | null; tolerance: number | null }[] = [
    ['p95 latency ms (whole call)', before.latencyMs.system, after.latencyMs.system, tolerances.latency] as const,
    ...stages.map(
      (name) =>
        [`p95 latency ms (stage ${name})`, before.stageLatencyMs[name], after.stageLatencyMs[name], tolerances.latency] as const,
    ),
  ].map(([name, b, a, tolerance]) => ({ name, b: b?.p95, a: a?.p95, interval: a?.p95Interval ?? null, tolerance }))
  candidates.push({
    name: 'USD per question',
    b: before.costPerQuestion?.usd,
    a: after.costPerQuestion?.usd,
    interval: after.costPerQuestion?.usdInterval ?? null,
    tolerance: tolerances.cost,
  })
  return candidates.flatMap(({ name, b: was, a: now, interval, tolerance }) =>
    was === undefined || now === undefined || tolerance === null
      ? []
      : [
          {
            name,
            before: was,
            after: now,
            afterInterval: interval,
            tolerance,
            risen: interval !== null && interval.low > was * (1 + tolerance),
          },
        ],
  )
}
