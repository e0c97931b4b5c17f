import { describe, expect, it } from 'vitest'
import { DEFAULT_MEASURES, parseMeasureSpecs } from './measure-spec'

const names = (args: readonly string[]): string[] => parseMeasureSpecs(args).map((column) => column.name)

describe('parseMeasureSpecs', () => {
  it('expands cutoffs and prints in trec_eval order whatever the argument order', () => {
    expect(names(['recip_rank', 'ndcg_cut.10', 'recall.5,10'])).toEqual(['recip_rank', 'recall_5', 'recall_10', 'ndcg_cut_10'])
    expect(names(['ndcg_cut.1,3,10', 'P.5', 'num_q'])).toEqual(['num_q', 'P_5', 'ndcg_cut_1', 'ndcg_cut_3', 'ndcg_cut_10'])
  })

  it('accepts one comma-separated list where bare numbers continue the previous measure', () => {
    expect(names(['recip_rank,recall.5,10,ndcg_cut.10'])).toEqual(names(['recip_rank', 'recall.5,10', 'ndcg_cut.10']))
  })

  it('defaults to recip_rank, recall_5, recall_10, ndcg_cut_10', () => {
    expect(names(DEFAULT_MEASURES)).toEqual(['recip_rank', 'recall_5', 'recall_10', 'ndcg_cut_10'])
  })

  it('sorts and de-duplicates cutoffs, merging repeated measures', () => {
    expect(names(['recall.10,5', 'recall.5'])).toEqual(['recall_5', 'recall_10'])
  })

  it("gives bare cutoff measures trec_eval's default cutoffs", () => {
    expect(names(['P'])).toEqual(['P_5', 'P_10', 'P_15', 'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000'])
  })

  it('marks num_q as summary-only', () => {
    expect(parseMeasureSpecs(['num_q', 'recip_rank']).map((column) => column.summaryOnly)).toEqual([true, false])
  })

  it('rejects unknown measures with the list of supported ones', () => {
    expect(() => parseMeasureSpecs(['map'])).toThrowError(/^unknown measure "map"; supported measures: recip_rank, P/)
    expect(() => parseMeasureSpecs(['recall_5'])).toThrowError('unknown measure "recall_5" (did you mean recall.5?)')
  })

  it('rejects bad cutoffs and cutoffs on measures without them', () => {
    expect(() => parseMeasureSpecs(['recip_rank.5'])).toThrowError('measure "recip_rank" takes no cutoffs (got "recip_rank.5")')
    expect(() => parseMeasureSpecs(['recall.0'])).toThrowError(/^invalid cutoff "0" in "recall.0"/)
    expect(() => parseMeasureSpecs(['ndcg_cut.'])).toThrowError(/^invalid cutoff "" in "ndcg_cut."/)
    expect(() => parseMeasureSpecs(['10'])).toThrowError(/^cutoff "10" in "10" does not follow a measure that takes cutoffs/)
    expect(() => parseMeasureSpecs(['recip_rank,10'])).toThrowError(/^cutoff "10" in "recip_rank,10" does not follow/)
    expect(() => parseMeasureSpecs([''])).toThrowError('no measures given')
  })
})
