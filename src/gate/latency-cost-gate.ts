import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { LatencyCostGate } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'
import { latencyCostRises, type RunFigures } from '../statistics/latency-cost-rises.ts'
import type { Baseline, DamagedBaseline } from './baseline-schema.ts'

/** p95 latency and cost per question against the baseline's run figures, under the tolerances the config sets. */
export function latencyCostGate(
  config: Pick<EvalConfig, 'latencyTolerance' | 'costTolerance'>,
  run: RunFigures,
  accepted: Baseline | DamagedBaseline | null,
  shownAs: string,
): LatencyCostGate | null {
  const { latencyTolerance = null, costTolerance = null } = config
  if ((latencyTolerance === null && costTolerance === null) || accepted === null || 'damaged' in accepted) return null
  const tolerances = { latencyTolerance, costTolerance }
  if (!accepted.run) return { baseline: null, ...tolerances, regressions: [] }
  const rises = latencyCostRises(accepted.run, run, { latency: latencyTolerance, cost: costTolerance })
  return {
    baseline: `${shownAs}/run.json`,
    ...tolerances,
    regressions: rises
      .filter((rise) => rise.risen)
      .map(({ name, before, after }) => ({ name, baseline: before, current: after, delta: round4(after - before) })),
  }
}
