// One Vitest case per gated metric against the accepted baseline (baseline/), plus the baseline itself.
import { defineMetricCases } from '../src/vitest/eval-cases.ts'

defineMetricCases()
