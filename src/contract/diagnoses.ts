import { FAITHFULNESS, RECALL } from './metrics/metric-table.ts'

/** The recall x faithfulness diagnoses, apart from the zod schema so the Vitest case file does not load zod for one list. */
export const DIAGNOSES = ['healthy', 'model ignores context', 'retrieval misses', 'both broken'] as const
export type Diagnosis = (typeof DIAGNOSES)[number]

/** The diagnosis's name, after the two metrics it crosses (its charts and latest.md's section use it). */
export const DIAGNOSIS_NAME = `${RECALL.name} x ${FAITHFULNESS.name}`
