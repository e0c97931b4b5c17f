import type { Report } from '../contract/report-schema.ts'
import { judgedGrades } from '../scoring/retrieval/graded-relevance.ts'
import { firstOccurrences } from '../scoring/retrieval/ndcg-at-10.ts'

/**
 * A report's doc-level qrels and run for trec_eval: qrels rel 1 per answer doc (a graded question's grades, 0
 * included; none questions left out); each question's documents once, at their best chunk's rank, with strictly
 * decreasing scores, since trec_eval re-sorts by score and breaks ties by docno. Its ndcg_cut.10 equals docNdcg10.
 */
export function exportReportToTrec(report: Report): { qrels: string; run: string } {
  const qrels: string[] = []
  const run: string[] = []
  for (const question of report.questions) {
    if (question.type === 'none') continue
    for (const [docId, grade] of judgedGrades(question)) qrels.push(`${question.id} 0 ${docId} ${grade}`)
    const docs = firstOccurrences(question.rankedDocIds)
    docs.forEach((docId, index) =>
      run.push(`${question.id} Q0 ${docId} ${index + 1} ${docs.length - index} ${report.config.system}`),
    )
  }
  return { qrels: qrels.join('\n') + '\n', run: run.join('\n') + '\n' }
}
