/** The question types (docs/metrics.md, "Question types"). */
export const QUESTION_TYPES = ['single', 'multi', 'contradiction', 'none'] as const
export type QuestionType = (typeof QUESTION_TYPES)[number]
/** The types with an answer in the corpus: the ones retrieval metrics are computed over. */
export const ANSWERABLE_TYPES = ['single', 'multi', 'contradiction'] as const satisfies readonly QuestionType[]
