import type { Summary } from './report-schema.ts'
import { formatMetric } from './format-table.ts'

const TYPES = ['single', 'multi', 'contradiction'] as const

/** The retrieval summary as table rows: one row per metric, overall then per answerable type. */
export function retrievalSummaryRows(summary: Summary, k: number): string[][] {
  const byType = summary.questionsByType
  return [
    ['metric', 'all', ...TYPES],
    ['questions', String(summary.answerable), ...TYPES.map((t) => String(byType[t]))],
    ['recall (context)', formatMetric(summary.recall), ...TYPES.map((t) => formatMetric(summary.recallByType[t]))],
    [`recall@${k}`, formatMetric(summary.recallAtK), ...TYPES.map((t) => formatMetric(summary.recallAtKByType[t]))],
    ['MRR', formatMetric(summary.mrr), ...TYPES.map((t) => formatMetric(summary.mrrByType[t]))],
    ['nDCG@10', formatMetric(summary.ndcg10), ...TYPES.map((t) => formatMetric(summary.ndcg10ByType[t]))],
  ]
}
