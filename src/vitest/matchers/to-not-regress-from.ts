import { compareMetric } from '../../gate/regression.ts'
import type { MatcherVerdict } from './verdict.ts'

export interface RegressionOptions {
  tolerance: number
  /** Metric name for the message, e.g. "recall.multi". */
  name?: string
}

/** toNotRegressFrom(baseline, { tolerance }): received is not below baseline by more than tolerance; undecidable on null. */
export function notRegressFrom(current: number | null, baseline: number | null, options: RegressionOptions): MatcherVerdict {
  const name = options.name ?? 'metric'
  const comparison = compareMetric(current, baseline, options.tolerance)
  if (current === null || baseline === null || comparison.delta === null) return { undecidable: `${name}: ${comparison.reason}` }
  const delta = `${comparison.delta >= 0 ? '+' : ''}${comparison.delta.toFixed(4)}`
  return {
    pass: comparison.status !== 'regressed',
    claim: `${name} not to fall below its baseline by more than ${options.tolerance}`,
    evidence: () =>
      [
        `baseline   ${baseline.toFixed(4)}`,
        `current    ${current.toFixed(4)}`,
        `delta      ${delta} (tolerance ${options.tolerance})`,
      ].join('\n'),
  }
}
