import { describe, expect, it } from 'vitest'
import { analysePassage, forgetPassageAnalyses } from './passage-analysis.ts'

describe('analysePassage', () => {
  it('reads the first line as the heading and splits the rest into sentences, each with its content terms', () => {
    const analysis = analysePassage('Billing > Refunds\nRefunds are issued within 5 days. See e.g. the policy.\n- Contact the billing team.')
    expect(analysis.headingTerms).toEqual(['bill', 'refund'])
    expect(analysis.sentences).toEqual([
      { text: 'Refunds are issued within 5 days.', terms: ['refund', 'issu', 'within', '5', 'dai'] },
      { text: 'See e.g. the policy.', terms: ['see', 'e.g', 'polici'] },
      { text: 'Contact the billing team.', terms: ['contact', 'bill', 'team'] },
    ])
  })

  it('reads a passage without a line break as all heading', () => {
    expect(analysePassage('Escalation paging rules')).toEqual({ headingTerms: ['escal', 'page', 'rule'], sentences: [] })
  })

  it('keeps an analysis for the next reader of the same text until forgotten', () => {
    const text = 'Retention\nLogs are kept for 30 days.'
    const first = analysePassage(text)
    expect(analysePassage(text)).toBe(first)
    forgetPassageAnalyses()
    const again = analysePassage(text)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
