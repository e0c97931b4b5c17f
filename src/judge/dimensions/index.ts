import type { MetricResult } from '../../scoring/generation/metric-result.ts'
import type { Verdicts } from '../judge.ts'
import { ANSWER_RELEVANCY_JUDGE } from './answer-relevancy.ts'
import { COVERAGE_JUDGE } from './coverage.ts'
import { FAITHFULNESS_JUDGE } from './faithfulness.ts'

export { ANSWER_RELEVANCY_JUDGE, COVERAGE_JUDGE, FAITHFULNESS_JUDGE }

/**
 * The judge-derived metrics the model judge scores, in the metric table's order: the model judge, the scoring of
 * an answer and the judge's prompts iterate it. A new judged metric is its metric's file, a
 * dimension file here and a row, and its offline scoring (offline-judge.ts).
 */
export const JUDGE_DIMENSIONS = [FAITHFULNESS_JUDGE, ANSWER_RELEVANCY_JUDGE, COVERAGE_JUDGE] as const

/** The judgement's verdicts: each dimension's, under its metric's name. */
export function verdictsOf(verdict: (dimension: (typeof JUDGE_DIMENSIONS)[number], index: number) => MetricResult): Verdicts {
  return Object.fromEntries(JUDGE_DIMENSIONS.map((d, i) => [d.metric.name, verdict(d, i)])) as Verdicts
}
