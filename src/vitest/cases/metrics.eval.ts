// One Vitest case per gated metric against the accepted baseline (baseline/), plus the baseline itself.
import { defineMetricCases } from '../eval-cases.ts'

defineMetricCases()
