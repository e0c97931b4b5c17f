import { describe, expect, it } from 'vitest'
import { EXIT_MISSING_QUERY, TrecError } from './errors'
import { evaluateRun, type TrecReport } from './evaluate'
import { parseMeasureSpecs } from './measure-spec'
import { parseQrels } from './qrels'
import { parseRun } from './run'

const QRELS = parseQrels(['q1 0 d1 1', 'q1 0 d2 0', 'q1 0 d3 2', 'q2 0 d1 0', 'q3 0 d5 1'].join('\n'))
// q2 (in the qrels) has no results; q4 is not in the qrels.
const RUN_MISSING_Q2 = parseRun(['q1 Q0 d3 1 2.0 r', 'q1 Q0 d1 2 1.0 r', 'q3 Q0 x 1 1.0 r', 'q4 Q0 d1 1 1.0 r'].join('\n'))
const COLUMNS = parseMeasureSpecs(['num_q', 'recip_rank', 'recall.10'])

function rows(report: TrecReport): string[] {
  return [...report.perQuery, ...report.summary].map((row) => `${row.measure} ${row.qid} ${row.value}`)
}

describe('evaluateRun', () => {
  it('fails with exit code 4 naming the qrels query that has no results (no -c)', () => {
    let caught: unknown
    try {
      evaluateRun(QRELS, RUN_MISSING_Q2, COLUMNS, { averageComplete: false })
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(TrecError)
    expect((caught as TrecError).exitCode).toBe(EXIT_MISSING_QUERY)
    expect((caught as TrecError).message).toMatch(/^qrels query "q2" has no results in the run .*pass -c/)
  })

  it('with -c counts the missing query as 0 (rows of 0, in the mean), ignoring run-only queries', () => {
    const report = evaluateRun(QRELS, RUN_MISSING_Q2, COLUMNS, { averageComplete: true })
    // q1: d3 (2) at rank 1 -> rr 1, recall 2/2; q2: nothing -> 0; q3: x unjudged -> 0, recall 0/1
    expect(rows(report)).toEqual([
      'recip_rank q1 1',
      'recall_10 q1 1',
      'recip_rank q2 0',
      'recall_10 q2 0',
      'recip_rank q3 0',
      'recall_10 q3 0',
      'num_q all 3',
      `recip_rank all ${1 / 3}`,
      `recall_10 all ${1 / 3}`,
    ])
    expect(report.missingQueries).toEqual(['q2'])
  })

  it('averages over qrels queries with results; a query with only rel 0 judgements counts as 0', () => {
    const run = parseRun(['q1 Q0 d9 1 3 r', 'q1 Q0 d1 2 2 r', 'q2 Q0 d1 1 1 r', 'q3 Q0 d5 1 1 r', 'q4 Q0 d5 1 1 r'].join('\n'))
    const report = evaluateRun(QRELS, run, COLUMNS, { averageComplete: false })
    // rr: q1 = 1/2 (d9 unjudged first), q2 = 0, q3 = 1 -> mean 1.5/3 = 0.5; recall_10: 1/2, 0, 1 -> 0.5
    expect(report.summary.map((row) => [row.measure, row.value])).toEqual([
      ['num_q', 3],
      ['recip_rank', 0.5],
      ['recall_10', 0.5],
    ])
    expect(report.evaluatedQueries).toEqual(['q1', 'q2', 'q3'])
  })

  it('orders queries by qid in byte order, not numerically', () => {
    const qrels = parseQrels('9 0 a 1\n10 0 a 1\n2 0 a 1\n')
    const run = parseRun('2 Q0 a 1 1 r\n9 Q0 a 1 1 r\n10 Q0 a 1 1 r\n')
    const report = evaluateRun(qrels, run, parseMeasureSpecs(['recip_rank']), { averageComplete: false })
    expect(report.perQuery.map((row) => row.qid)).toEqual(['10', '2', '9'])
  })

  it('names at most five missing queries', () => {
    const qrels = parseQrels(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((qid) => `${qid} 0 x 1`).join('\n'))
    const run = parseRun('a Q0 x 1 1 r\n')
    expect(() => evaluateRun(qrels, run, COLUMNS, { averageComplete: false })).toThrowError(
      /^qrels queries "b", "c", "d", "e", "f" and 2 more have no results in the run/,
    )
  })

  it('fails clearly on empty qrels', () => {
    expect(() => evaluateRun(parseQrels(''), RUN_MISSING_Q2, COLUMNS, { averageComplete: true })).toThrowError(
      /^no queries to evaluate/,
    )
  })
})
