/** What a question says about its documents' relevance: its answer docs and, when graded, their grades. */
export interface GradedQuestion {
  answerDocIds: readonly string[]
  relevance?: Readonly<Record<string, number>> | undefined
}

/**
 * Each judged document's grade (its nDCG gain): an ungraded question's answer docs are grade 1, a document
 * absent from the map grade 0.
 */
export function gradesOf(question: GradedQuestion): ReadonlyMap<string, number> {
  if (question.relevance === undefined) return new Map(question.answerDocIds.map((id) => [id, 1]))
  return new Map(Object.entries(question.relevance))
}

/**
 * The answer docs relevant for recall, hits and MRR: graded `relevantGrade` or more (trec_eval's `-l`), in
 * answerDocIds order.
 */
export function relevantDocIds(question: GradedQuestion, relevantGrade: number): string[] {
  const grades = gradesOf(question)
  return question.answerDocIds.filter((id) => (grades.get(id) ?? 0) >= relevantGrade)
}

/** A question's judged documents and their grades, as qrels list them: an ungraded question's answer docs at 1, a graded one's relevance (0 included). */
export function judgedGrades(question: GradedQuestion): [string, number][] {
  return question.relevance === undefined ? question.answerDocIds.map((docId) => [docId, 1]) : Object.entries(question.relevance)
}
