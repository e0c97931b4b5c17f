// One Vitest case per gated metric against the accepted baseline (baseline/), plus the baseline itself.
// With EVAL_COMPARE=<config>, also one case per metric against that config's run.
import { defineCompareCases, defineMetricCases } from '../eval-cases.ts'

defineMetricCases()
defineCompareCases()
