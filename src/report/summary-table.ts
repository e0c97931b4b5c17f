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

/** The generation summary as table rows: metric, mean, P10 (the worst tenth's edge). Empty in the retrieval tier. */
export function generationSummaryRows(summary: Summary): string[][] {
  if (summary.judge === null) return []
  return [
    ['generation', 'mean', 'P10'],
    ['refusal rate (none)', formatMetric(summary.refusalRate), ''],
    ['false refusals (answerable)', formatMetric(summary.falseRefusalRate), ''],
    ['faithfulness', formatMetric(summary.faithfulness), formatMetric(summary.faithfulnessP10)],
    ['answer relevancy', formatMetric(summary.answerRelevancy), formatMetric(summary.answerRelevancyP10)],
    ['coverage', formatMetric(summary.coverage), formatMetric(summary.coverageP10)],
    ['contradiction handled', formatMetric(summary.contradictionHandledRate), ''],
  ]
}

/** Where to look for each cell of the recall x faithfulness table. */
const WHERE_TO_LOOK = {
  healthy: 'nothing to fix',
  'model ignores context': 'the answer: prompt, model, refusal threshold (the context had the answer)',
  'retrieval misses': 'retrieval: chunking, ranking, context budget (the model stayed with what it got)',
  'both broken': 'retrieval first, then the answer',
} as const

/** The aggregate recall x faithfulness (2x2) table: answerable questions per diagnosis, with where to look. */
export function diagnosisRows(summary: Summary): string[][] {
  const counts = summary.diagnosis
  if (counts === null) return []
  return [
    ['', 'model fine', 'model not fine'],
    ['context hit', `healthy: ${counts.healthy}`, `model ignores context: ${counts['model ignores context']}`],
    ['context miss', `retrieval misses: ${counts['retrieval misses']}`, `both broken: ${counts['both broken']}`],
  ]
}

export function whereToLook(summary: Summary): string[] {
  const counts = summary.diagnosis
  if (counts === null) return []
  return (Object.keys(WHERE_TO_LOOK) as (keyof typeof WHERE_TO_LOOK)[]).filter((d) => counts[d] > 0).map((d) => `${d} (${counts[d]}): ${WHERE_TO_LOOK[d]}`)
}
