import { describe, expect, it } from 'vitest'
import type { TrecReport } from './evaluate'
import { formatReport, formatRow, formatValue } from './format'

describe('formatValue (C printf %.Nf)', () => {
  it('prints 10 decimals by default', () => {
    expect(formatValue(1 / 3)).toBe('0.3333333333')
    expect(formatValue(2 / 3)).toBe('0.6666666667')
    expect(formatValue(0)).toBe('0.0000000000')
    expect(formatValue(1)).toBe('1.0000000000')
  })

  it('rounds exact binary ties to even like glibc printf, not away from zero like toFixed', () => {
    // 1/2048 = 0.00048828125 and 3/2048 = 0.00146484375 are exact doubles ending in 5 at the 11th decimal
    expect(formatValue(1 / 2048)).toBe('0.0004882812')
    expect(formatValue(3 / 2048)).toBe('0.0014648438')
    expect(formatValue(0.5, 0)).toBe('0')
    expect(formatValue(1.5, 0)).toBe('2')
    expect(formatValue(2.5, 0)).toBe('2')
    expect(formatValue(0.125, 2)).toBe('0.12')
  })

  it('leaves near-ties that are not exact alone', () => {
    // 0.15 is stored as 0.1499999999999999944..., printf("%.1f", 0.15) = "0.1"
    expect(formatValue(0.15, 1)).toBe('0.1')
    expect(formatValue(0.35, 1)).toBe('0.3')
  })
})

describe('formatRow / formatReport', () => {
  it('pads the measure to 22 characters, then TAB qid TAB value', () => {
    expect(formatRow({ measure: 'recip_rank', qid: 'q1', value: 1 / 3, integer: false })).toBe(
      'recip_rank            \tq1\t0.3333333333',
    )
    expect(formatRow({ measure: 'num_q', qid: 'all', value: 3, integer: true })).toBe('num_q                 \tall\t3')
    expect(formatRow({ measure: 'a_measure_name_longer_than_22', qid: 'all', value: 0, integer: false })).toBe(
      'a_measure_name_longer_than_22\tall\t0.0000000000',
    )
  })

  it('prints per-query rows then all rows, or only all rows', () => {
    const report: TrecReport = {
      perQuery: [{ measure: 'P_5', qid: 'q1', value: 0.2, integer: false }],
      summary: [{ measure: 'P_5', qid: 'all', value: 0.2, integer: false }],
      evaluatedQueries: ['q1'],
      missingQueries: [],
    }
    expect(formatReport(report, { perQuery: true })).toBe(
      'P_5                   \tq1\t0.2000000000\nP_5                   \tall\t0.2000000000\n',
    )
    expect(formatReport(report, { perQuery: false })).toBe('P_5                   \tall\t0.2000000000\n')
  })
})
