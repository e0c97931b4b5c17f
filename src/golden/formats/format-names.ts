export const FORMATS = ['jsonl', 'ragas', 'trec'] as const
export type FormatName = (typeof FORMATS)[number]

/** What each format cannot carry, printed by golden:import and golden:export and listed in docs/golden-set.md. */
export const NOT_CARRIED: Record<FormatName, string> = {
  jsonl: 'governingDocId, notes and relevance grades',
  ragas:
    'ids (q-001... by position), types (inferred from the answer docs: contradiction is lost), governingDocId, notes, userContext, history, provenance and relevance grades',
  trec: 'gold answers (a TODO placeholder on import), types (inferred from the relevant docs: contradiction is lost), governingDocId, notes, userContext, history and provenance',
}
