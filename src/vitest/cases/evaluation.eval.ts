// The evaluation as Vitest cases, in one file (one worker to start): a case per golden question, grouped
// by type; a case per gated metric against the accepted baseline (baseline/), plus the baseline itself,
// the judge's calibration and the error rates; with EVAL_COMPARE=<config>, a case per metric against that
// config's run; with an attack set, a case per attack. All read the one run the global setup shares, waiting for its evaluation to finish.
import { defineCompareCases, defineMetricCases, defineQuestionCases, sharedRun } from '../eval-cases.ts'
import { defineAttackCases } from '../attack-cases.ts'

const run = await sharedRun()
if (run) {
  defineQuestionCases(run)
  defineMetricCases(run)
  defineAttackCases(run)
  defineCompareCases(run)
}
