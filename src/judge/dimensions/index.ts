import type { MetricResult } from '../../scoring/generation/metric-result.ts'
import type { Verdicts } from '../judge.ts'
import { ANSWER_RELEVANCY_JUDGE } from './answer-relevancy.ts'
import { CITATIONS_JUDGE } from './citations.ts'
import { COVERAGE_JUDGE } from './coverage.ts'
import { FAITHFULNESS_JUDGE } from './faithfulness.ts'
import { GENERATOR_DIAGNOSTICS_JUDGE } from './generator-diagnostics.ts'

export { ANSWER_RELEVANCY_JUDGE, CITATIONS_JUDGE, COVERAGE_JUDGE, FAITHFULNESS_JUDGE, GENERATOR_DIAGNOSTICS_JUDGE }

/**
 * The model judge's metrics, in the metric table's order. A new judged metric: its metric file, a dimension
 * file and a row here, and its offline scoring (offline-judge.ts).
 */
export const JUDGE_DIMENSIONS = [
  FAITHFULNESS_JUDGE,
  ANSWER_RELEVANCY_JUDGE,
  COVERAGE_JUDGE,
  GENERATOR_DIAGNOSTICS_JUDGE,
  CITATIONS_JUDGE,
] as const

/** The judgement's verdicts: each dimension's, under its metric's name. */
export function verdictsOf(verdict: (dimension: (typeof JUDGE_DIMENSIONS)[number], index: number) => MetricResult): Verdicts {
  return Object.fromEntries(JUDGE_DIMENSIONS.map((d, i) => [d.metric.name, verdict(d, i)])) as Verdicts
}
