import { FAITHFULNESS, RECALL } from './metrics/metric-table.ts'

/** The recall x faithfulness diagnoses, apart from the zod schema so the Vitest case file does not load zod for one list. */
export const DIAGNOSES = ['healthy', 'model ignores context', 'retrieval misses', 'both broken'] as const
export type Diagnosis = (typeof DIAGNOSES)[number]

/** Whose failure a question's answer is, by the generator diagnostics (scoring/generation/diagnosis.ts). */
export const BLAMES = ['retriever', 'generator'] as const
export type Blame = (typeof BLAMES)[number]

/** A blame as latest.md and a failing case state it. */
export const BLAME_REASONS: Record<Blame, string> = {
  retriever: "the retriever's: the context lacks most of the gold answer's claims",
  generator: "the generator's: the context holds the gold answer's claims, the answer misuses or leaves them",
}

/** The diagnosis's name, after the two metrics it crosses (its charts and latest.md's section use it). */
export const DIAGNOSIS_NAME = `${RECALL.name} x ${FAITHFULNESS.name}`
