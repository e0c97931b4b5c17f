import { describe, expect, it } from 'vitest'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { loadCorpus } from '../../load/corpus.ts'
import { renderCard } from './review-card.ts'
import { supportMarks } from './supporting-sentences.ts'

const docs = loadCorpus('fixtures/corpora/drafting')

const single: GoldenQuestion = {
  id: 'd-001',
  type: 'single',
  question: 'How long does the download link of an export stay valid?',
  answerDocIds: ['guides/exporting-data'],
  goldAnswer: 'The download link stays valid for 7 days.',
}

/** The marked sentences of a question's documents: [docId, sentence, claims it supports, claims whose facts it states]. */
const marked = (q: GoldenQuestion) =>
  supportMarks(q, docs).documents.flatMap((d) =>
    d.sentences
      .filter((s) => s.supports.length + s.statesFactsOf.length > 0)
      .map((s) => [d.docId, s.text, s.supports, s.statesFactsOf]),
  )

describe("the review card's supporting sentences (golden verify's lexical support, sentence by sentence)", () => {
  it('marks the one sentence that supports the claim, and golden verify keeps the claim', () => {
    expect(marked(single)).toEqual([['guides/exporting-data', 'The download link stays valid for 7 days.', [1], []]])
    expect(supportMarks(single, docs).claims.map((c) => [c.claim, c.verdict])).toEqual([
      ['The download link stays valid for 7 days.', 'supported'],
    ])
  })

  it('a claim no sentence supports alone marks the sentences stating its facts', () => {
    const spread: GoldenQuestion = {
      id: 'd-002',
      type: 'single',
      question: 'How long are raw records and aggregated reports kept since April 2026?',
      answerDocIds: ['notices/retention-change-2026'],
      goldAnswer: 'Raw records are kept for 365 days and aggregated reports for 3 years.',
    }
    expect(marked(spread)).toEqual([
      [
        'notices/retention-change-2026',
        'From 1 April 2026, raw records are kept for 365 days after they are imported, up from the earlier limit.',
        [],
        [1],
      ],
      [
        'notices/retention-change-2026',
        'Aggregated reports are still kept for 3 years, and deleted projects still stay recoverable for 30 days.',
        [],
        [1],
      ],
    ])
  })

  it('the card: the fields, the claims, the marked sentence with its neighbours, the rest elided, the system top-k', () => {
    const card = renderCard({
      question: {
        ...single,
        userContext: { role: 'support' },
        provenance: { origin: 'harvested', source: 'logs.jsonl', line: 7, askedAt: '2026-11-30T10:02:11Z', harvestedAt: 'now' },
      },
      where: 'verified.jsonl:1',
      position: 1,
      of: 3,
      marks: supportMarks(single, docs),
      notes: [],
      retrieval: {
        system: 'the configured system (builtin-bm25)',
        passages: [
          {
            chunkId: 'guides/importing-data#2',
            docId: 'guides/importing-data',
            text: 'Imported dates without a time zone are read as UTC.',
          },
          {
            chunkId: 'guides/exporting-data#2',
            docId: 'guides/exporting-data',
            text: 'The download link stays valid for 7 days.',
          },
        ],
      },
    })
    const lines = card.split('\n')
    expect(lines[0]).toMatch(/^── draft 1 of 3: d-001 \(verified\.jsonl:1\) ─+$/)
    expect(lines).toContain('userContext: {"role":"support"}')
    expect(lines).toContain('drafted:     harvested, logs.jsonl:7, asked 2026-11-30T10:02:11Z')
    expect(lines).toContain(
      '  [1] supported: The download link stays valid for 7 days. (' + supportMarks(single, docs).claims[0]!.reason + ')',
    )
    const doc = lines.indexOf('  guides/exporting-data  Exporting Data')
    expect(lines.slice(doc + 1, doc + 5)).toEqual([
      '     [… 5 sentences]',
      '     A larger project must be exported in parts, one date range at a time.',
      '  >> [1] The download link stays valid for 7 days.',
      '     After that the export must be run again.',
    ])
    expect(lines).toContain('   2. guides/exporting-data#2 (gold)  The download link stays valid for 7 days.')
    expect(lines.at(-1)).toBe('  gold documents: guides/exporting-data at rank 2')
  })
})
