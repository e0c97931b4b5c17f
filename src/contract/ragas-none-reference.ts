/**
 * The `reference` a RAGAS sample of a none question carries when its golden question has no gold answer:
 * the answer the system is expected to give, a refusal. Without one RAGAS's reference-based metrics
 * (answer correctness, factual correctness, context recall) fail on those rows. The importer reads it
 * back as "no gold answer", so an export imports back to the same golden set.
 */
export const RAGAS_NONE_REFERENCE = 'The provided documents do not contain the answer to this question.'
