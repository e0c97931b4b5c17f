/**
 * The RAGAS `reference` of a none question without a gold answer: the expected refusal (RAGAS's reference-based
 * metrics fail without one). The importer reads it back as no gold answer, so exports round-trip.
 */
export const RAGAS_NONE_REFERENCE = 'The provided documents do not contain the answer to this question.'
