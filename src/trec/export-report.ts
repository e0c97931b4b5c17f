import type { Report } from '../contract/report-schema.ts'
import { judgedGrades } from '../scoring/retrieval/graded-relevance.ts'
import { firstOccurrences } from '../scoring/retrieval/ndcg-at-10.ts'

/**
 * The doc-level qrels and run of a report, in TREC formats, so trec_eval can be run on our output.
 * Qrels: every answer doc of every answerable question, rel 1, or a graded question's documents with
 * their grades, 0 included (none questions have nothing relevant and are left out, as trec_eval would
 * skip them). Run: each question's documents once, at the rank of
 * their best chunk. Scores are rank-derived and strictly decreasing (n, n-1, ...), because trec_eval
 * re-sorts by score and breaks ties by docno, which would reorder equal-scored documents.
 * trec_eval's ndcg_cut.10 on these files equals the report's docNdcg10 per question.
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
