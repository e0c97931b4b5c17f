import type { Summary } from '../contract/report-schema.ts'
import { formatInterval, formatMetric } from '../common/format-table.ts'
import { ANSWERABLE_TYPES } from '../contract/question-types.ts'

const TYPES = ANSWERABLE_TYPES

/** A summary metric with its 95% interval when it has one: `0.8879 [0.81, 0.93]`. */
function withInterval(summary: Summary, path: string, value: number | null): string {
  const interval = summary.intervals[path]
  return interval ? `${formatMetric(value)} ${formatInterval(interval)}` : formatMetric(value)
}

/** The retrieval summary as table rows: one row per metric, overall then per answerable type, each with its 95% interval. */
export function retrievalSummaryRows(summary: Summary, k: number): string[][] {
  const byType = summary.questionsByType
  const row = (label: string, path: string, overall: number | null, perType: Record<(typeof TYPES)[number], number | null>) => [
    label,
    withInterval(summary, path, overall),
    ...TYPES.map((t) => withInterval(summary, `${path}ByType.${t}`, perType[t])),
  ]
  return [
    ['metric', 'all', ...TYPES],
    ['questions', String(summary.answerable), ...TYPES.map((t) => String(byType[t]))],
    row('recall (context)', 'recall', summary.recall, summary.recallByType),
    row(`recall@${k}`, 'recallAtK', summary.recallAtK, summary.recallAtKByType),
    row('MRR', 'mrr', summary.mrr, summary.mrrByType),
    row('nDCG@10', 'ndcg10', summary.ndcg10, summary.ndcg10ByType),
    // A system that reports no chunk counts has no chunk-level nDCG: the doc-level one (trec_eval's ndcg_cut.10) stands in.
    ...(summary.ndcg10 === null && summary.docNdcg10 !== null
      ? [['nDCG@10 (doc-level)', withInterval(summary, 'docNdcg10', summary.docNdcg10), '', '', '']]
      : []),
  ]
}

/** The generation summary as table rows: metric, mean, P10 (the worst tenth's edge). Empty in the retrieval tier. */
export function generationSummaryRows(summary: Summary): string[][] {
  if (summary.judge === null) return []
  return [
    ['generation', 'mean [95% interval]', 'P10'],
    ['refusal rate (none)', withInterval(summary, 'refusalRate', summary.refusalRate), ''],
    ['false refusals (answerable)', withInterval(summary, 'falseRefusalRate', summary.falseRefusalRate), ''],
    ['faithfulness', withInterval(summary, 'faithfulness', summary.faithfulness), formatMetric(summary.faithfulnessP10)],
    [
      'answer relevancy',
      withInterval(summary, 'answerRelevancy', summary.answerRelevancy),
      formatMetric(summary.answerRelevancyP10),
    ],
    ['coverage', withInterval(summary, 'coverage', summary.coverage), formatMetric(summary.coverageP10)],
    ['contradiction handled', withInterval(summary, 'contradictionHandledRate', summary.contradictionHandledRate), ''],
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
  return (Object.keys(WHERE_TO_LOOK) as (keyof typeof WHERE_TO_LOOK)[])
    .filter((d) => counts[d] > 0)
    .map((d) => `${d} (${counts[d]}): ${WHERE_TO_LOOK[d]}`)
}
