import type { Latency, RunInfo } from '../contract/report-schema.ts'

/** An interval whose bounds may be unknown (a percentile's from few values). */
type Bounds = { low: number | null; high: number | null }

/** A run's latency and cost figures, as its report's `run` and a baseline's run.json hold them. */
export type RunFigures = Pick<RunInfo, 'latencyMs' | 'stageLatencyMs' | 'costPerQuestion'>

/** One figure of a run against an earlier run's. */
export interface FigureRise {
  name: string
  before: number
  beforeInterval: Bounds | null
  after: number
  afterInterval: Bounds | null
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
  type Figure = { value: number; interval: Bounds | null } | null | undefined
  const p95 = (latency: Latency | null | undefined): Figure =>
    latency && { value: latency.p95, interval: latency.p95Interval ?? null }
  const usd = (run: RunFigures): Figure =>
    run.costPerQuestion && { value: run.costPerQuestion.usd, interval: run.costPerQuestion.usdInterval }
  const stages = Object.keys(after.stageLatencyMs).filter((name) => before.stageLatencyMs[name])
  const figures: [string, Figure, Figure, number | null][] = [
    ['p95 latency ms (whole call)', p95(before.latencyMs.system), p95(after.latencyMs.system), tolerances.latency],
    ...stages.map((name): [string, Figure, Figure, number | null] => [
      `p95 latency ms (stage ${name})`,
      p95(before.stageLatencyMs[name]),
      p95(after.stageLatencyMs[name]),
      tolerances.latency,
    ]),
    ['USD per question', usd(before), usd(after), tolerances.cost],
  ]
  return figures.flatMap(([name, was, now, tolerance]) =>
    !was || !now || tolerance === null
      ? []
      : [
          {
            name,
            before: was.value,
            beforeInterval: was.interval,
            after: now.value,
            afterInterval: now.interval,
            tolerance,
            risen: now.interval?.low != null && now.interval.low > was.value * (1 + tolerance),
          },
        ],
  )
}
