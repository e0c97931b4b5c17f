import type { Metric } from './metric.ts'
import { RECALL } from './recall.ts'
import { RECALL_AT_K } from './recall-at-k.ts'
import { MRR } from './mrr.ts'
import { NDCG_10 } from './ndcg10.ts'
import { DOC_NDCG_10 } from './doc-ndcg10.ts'
import { ID_BASED_CONTEXT_RECALL } from './id-based-context-recall.ts'
import { ID_BASED_CONTEXT_PRECISION } from './id-based-context-precision.ts'
import { REFUSAL_RATE } from './refusal-rate.ts'
import { FALSE_REFUSAL_RATE } from './false-refusal-rate.ts'
import { REFUSAL_UNCLEAR } from './refusal-unclear.ts'
import { FAITHFULNESS } from './faithfulness.ts'
import { ANSWER_RELEVANCY } from './answer-relevancy.ts'
import { COVERAGE } from './coverage.ts'
import { CONTRADICTION_HANDLED_RATE } from './contradiction-handled-rate.ts'
import { CLAIM_RECALL } from './claim-recall.ts'
import { CONTEXT_UTILISATION } from './context-utilisation.ts'
import { NOISE_SENSITIVITY } from './noise-sensitivity.ts'
import { HALLUCINATION } from './hallucination.ts'
import { SELF_KNOWLEDGE } from './self-knowledge.ts'
import { CITATION_PRECISION } from './citation-precision.ts'
import { CITATION_RECALL } from './citation-recall.ts'
import { LEAK_RATE } from './leak-rate.ts'

/**
 * Every metric, in report order; every consumer iterates it (as trec_eval's te_trec_measures[]). Adding a metric
 * is a file and a row (docs/adding-a-metric.md).
 */
export const METRICS = [
  RECALL,
  RECALL_AT_K,
  MRR,
  NDCG_10,
  DOC_NDCG_10,
  ID_BASED_CONTEXT_RECALL,
  ID_BASED_CONTEXT_PRECISION,
  REFUSAL_RATE,
  FALSE_REFUSAL_RATE,
  REFUSAL_UNCLEAR,
  FAITHFULNESS,
  ANSWER_RELEVANCY,
  COVERAGE,
  CONTRADICTION_HANDLED_RATE,
  CLAIM_RECALL,
  CONTEXT_UTILISATION,
  NOISE_SENSITIVITY,
  HALLUCINATION,
  SELF_KNOWLEDGE,
  CITATION_PRECISION,
  CITATION_RECALL,
  LEAK_RATE,
] as const satisfies readonly Metric[]

// The metrics that code reads by their constant (the diagnosis, the judge's dimensions, calibration) rather than iterating the table.
export {
  RECALL,
  FAITHFULNESS,
  ANSWER_RELEVANCY,
  COVERAGE,
  CLAIM_RECALL,
  CONTEXT_UTILISATION,
  NOISE_SENSITIVITY,
  HALLUCINATION,
  CITATION_PRECISION,
  LEAK_RATE,
}

/** A table of metrics: the real one, or a copy a test extends. */
export type MetricTable = readonly Metric[]
