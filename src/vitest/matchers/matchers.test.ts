import { describe, expect, it } from 'vitest'
import type { QuestionOutcome } from '../../contract/report-schema.ts'
import { NOT_JUDGED } from '../../contract/question-outcome-schema.ts'
import { ragMatchers } from './index.ts'
import { beFaithful } from './to-be-faithful.ts'
import { coverGoldAnswer } from './to-cover-gold-answer.ts'
import { notRegressFrom } from './to-not-regress-from.ts'
import { rankAnswerWithin } from './to-rank-answer-within.ts'
import { refuse } from './to-refuse.ts'
import { surviveStages } from './to-survive-stages.ts'

// As a user's own tests register them (README.md); no other test of this repository uses them.
expect.extend(ragMatchers)

const outcome = (overrides: Partial<QuestionOutcome> = {}): QuestionOutcome => ({
  id: 'q-1',
  type: 'multi',
  question: 'How long are traces kept, and how often are snapshots taken?',
  userContext: null,
  systemError: null,
  answerDocIds: ['d1', 'd2'],
  governingDocId: null,
  goldAnswer: '30 days; every 6 hours.',
  rankedDocIds: ['d3', 'd1', 'd2'],
  contextDocIds: ['d3', 'd1'],
  contextTokens: 250,
  relevantChunkCount: 2,
  hit: false,
  reciprocalRank: 0.5,
  ndcg10: 0.6,
  docNdcg10: 0.6,
  recallAtK: 1,
  idBasedContextRecall: null,
  idBasedContextPrecision: null,
  topRanked: [
    { chunkId: 'd3#1', docId: 'd3', score: 9.5 },
    { chunkId: 'd1#1', docId: 'd1', score: 7.25 },
    { chunkId: 'd2#2', docId: 'd2', score: 3 },
  ],
  context: [
    { chunkId: 'd3#1', docId: 'd3', tokens: 130 },
    { chunkId: 'd1#1', docId: 'd1', tokens: 120 },
  ],
  answer: null,
  ...NOT_JUDGED,
  stages: [],
  funnel: null,
  ...overrides,
})

describe('toHitContext', () => {
  it('passes when the mode is satisfied, and .not passes when it is not', () => {
    expect(outcome()).toHitContext(['d1', 'd2'], { mode: 'single' })
    expect(outcome()).not.toHitContext(['d1', 'd2'], { mode: 'multi' })
    expect(outcome({ type: 'contradiction' })).toHitContext(['d1', 'd2'], { mode: 'contradiction', governingDocId: 'd1' })
    expect(outcome({ type: 'contradiction' })).not.toHitContext(['d1', 'd2'], { mode: 'contradiction', governingDocId: 'd2' })
  })
  it('fails with the evidence: expected docs, context with tokens, top-10 with scores', () => {
    expect(() => expect(outcome()).toHitContext(['d1', 'd2'], { mode: 'multi' })).toThrow(
      [
        'expected the context of q-1 to hold all of d1, d2 (multi)',
        '',
        'question   q-1 [multi] How long are traces kept, and how often are snapshots taken?',
        'expected   d1, d2',
        'context    250 tokens:',
        '  d3#1  130 tokens',
        '  d1#1  120 tokens',
        'top-10 ranked (chunk, score):',
        '   1. d3#1  9.5000',
        '   2. d1#1  7.2500',
        '   3. d2#2  3.0000',
      ].join('\n'),
    )
  })
  it("shows the question's userContext in the evidence, since the right answer may depend on it", () => {
    expect(() =>
      expect(outcome({ userContext: { role: 'employee', tenant: 'acme' } })).toHitContext(['d2'], { mode: 'single' }),
    ).toThrow(
      'question   q-1 [multi] How long are traces kept, and how often are snapshots taken?\nuser       {"role":"employee","tenant":"acme"}\nexpected   d1, d2',
    )
  })
  it("shows a follow-up question's conversation under the question, a turn a line, oldest first", () => {
    const history = [
      { role: 'user' as const, content: 'How long are traces kept?' },
      { role: 'assistant' as const, content: 'Thirty days\non Business.' },
    ]
    expect(() => expect(outcome({ history, question: 'And snapshots?' })).toHitContext(['d2'], { mode: 'single' })).toThrow(
      [
        'question   q-1 [multi] And snapshots?',
        'follows    user      How long are traces kept?',
        '           assistant Thirty days on Business.',
        'expected   d1, d2',
      ].join('\n'),
    )
  })
  it('.not fails when the context does hold the docs', () => {
    expect(() => expect(outcome()).not.toHitContext(['d1'], { mode: 'single' })).toThrow(
      'expected not the context of q-1 to hold one of d1 (single)',
    )
  })
  it('rejects a received value that is not a question outcome, naming the field', () => {
    expect(() => expect({ id: 'x' }).toHitContext(['d1'], { mode: 'single' })).toThrow(
      'toHitContext expects a question outcome of the report (reports/latest.json questions[]); field "type"',
    )
  })
})

describe('toRankAnswerWithin', () => {
  it('passes at or above k, fails below, .not inverts', () => {
    expect(outcome()).toRankAnswerWithin(2)
    expect(outcome()).not.toRankAnswerWithin(1)
    expect(() => expect(outcome()).toRankAnswerWithin(1)).toThrow(
      'expected an answer doc of q-1 within the top 1 (first answer doc at rank 2)',
    )
  })
  it('is undecidable for a none question', () => {
    expect(rankAnswerWithin(outcome({ answerDocIds: [], type: 'none' }), 3)).toEqual({
      undecidable: 'q-1 is a none question: there is no answer to rank',
    })
  })
})

describe('toSurviveStages', () => {
  // d1 made it through retrieve and rerank (the budget cut it later); the reranker dropped d2, ranked 4th by retrieve.
  const staged = outcome({
    stages: [
      {
        name: 'retrieve',
        ranked: 2,
        hit: true,
        reciprocalRank: 1,
        topRanked: [
          { chunkId: 'd1#1', docId: 'd1', score: 2 },
          { chunkId: 'd2#2', docId: 'd2', score: 1 },
        ],
      },
      { name: 'rerank', ranked: 1, hit: false, reciprocalRank: 1, topRanked: [{ chunkId: 'd1#1', docId: 'd1', score: 0.9 }] },
    ],
    funnel: [
      { docId: 'd1', lost: 'budget', rank: 1 },
      { docId: 'd2', lost: 'stage', stage: 'rerank', rank: 4 },
    ],
  })
  it('passes when every named doc reaches the final ranking, fails naming the stage that cut one', () => {
    expect(staged).toSurviveStages(['d1'])
    expect(staged).not.toSurviveStages()
    expect(() => expect(staged).toSurviveStages()).toThrow(
      [
        'expected d1, d2 of q-1 to survive every stage (d2 retrieved at rank 4, cut by rerank)',
        '',
        'question   q-1 [multi] How long are traces kept, and how often are snapshots taken?',
        'expected   d1, d2',
        'lost       d1 ranked 1, cut by the context budget',
        '           d2 retrieved at rank 4, cut by rerank',
        'context    250 tokens:',
        '  d3#1  130 tokens',
        '  d1#1  120 tokens',
        'stage retrieve: 2 chunks',
        '   1. d1#1  2.0000',
        '   2. d2#2  1.0000',
        'stage rerank: 1 chunk',
        '   1. d1#1  0.9000',
        'top-10 ranked (chunk, score):',
      ].join('\n'),
    )
  })
  it("toHitContext's message names where each missing answer doc was lost", () => {
    expect(() => expect(staged).toHitContext(['d1', 'd2'], { mode: 'multi' })).toThrow(
      'expected the context of q-1 to hold all of d1, d2 (multi): d2 retrieved at rank 4, cut by rerank\n',
    )
  })
  it('is undecidable without a funnel (a none question) and for a doc that is not an answer doc', () => {
    expect(surviveStages(outcome(), ['d1'])).toEqual({
      undecidable: 'q-1 has no loss funnel (a none question has no answer docs)',
    })
    expect(surviveStages(staged, ['d9'])).toEqual({ undecidable: 'd9 not among the answer docs of q-1 (d1, d2)' })
  })
})

describe('toRefuse', () => {
  it('passes on a refusal, fails on an answer, .not inverts', () => {
    expect(outcome({ refused: true, answer: 'I cannot find this in the material.' })).toRefuse()
    expect(outcome({ refused: false, answer: '30 days.' })).not.toRefuse()
    expect(() => expect(outcome({ refused: false, answer: '30 days.' })).toRefuse()).toThrow(
      /expected q-1 to be refused[\s\S]*answer {5}30 days\./,
    )
  })
  it('is undecidable without an answer', () => {
    expect(refuse(outcome())).toEqual({ undecidable: 'q-1: no answer to judge (the run generated no answers)' })
  })
})

describe('toBeFaithful', () => {
  it('compares with the minimum and lists the unsupported claims on failure', () => {
    const answered = outcome({
      answer: 'Traces are kept 30 days. Snapshots run hourly.',
      faithfulness: 0.5,
      unsupportedClaims: ['Snapshots run hourly.'],
    })
    expect(answered).toBeFaithful({ min: 0.5 })
    expect(answered).not.toBeFaithful({ min: 0.75 })
    expect(() => expect(answered).toBeFaithful({ min: 0.75 })).toThrow(
      /expected faithfulness of q-1 >= 0.75 \(got 0.5\)[\s\S]*unsupported claims:\n {2}- "Snapshots run hourly\."/,
    )
  })
  it("names the answer's fabricated citations in the failure's evidence", () => {
    const answered = outcome({
      answer: 'Traces are kept 30 days [7].',
      faithfulness: 0.5,
      fabricatedCitations: ['[7]', 'doc-9#1'],
    })
    expect(() => expect(answered).toBeFaithful({ min: 0.75 })).toThrow(
      /answer {5}Traces are kept 30 days \[7\]\.\nfabricated citations: \[7\], doc-9#1/,
    )
  })
  it('is undecidable when faithfulness is null', () => {
    expect(beFaithful(outcome(), { min: 0.8 })).toEqual({
      undecidable: 'q-1: faithfulness not computed (no answer, or no decidable claim)',
    })
  })
})

describe('toCoverGoldAnswer', () => {
  it('compares coverage with the minimum and shows the gold answer', () => {
    const answered = outcome({ answer: 'Traces are kept 30 days.', coverage: 0.5 })
    expect(answered).toCoverGoldAnswer({ min: 0.5 })
    expect(answered).not.toCoverGoldAnswer({ min: 0.6 })
    expect(() => expect(answered).toCoverGoldAnswer({ min: 0.6 })).toThrow(
      /cover >= 0.6 of the gold answer \(got 0.5\)\n\ngold answer 30 days; every 6 hours\./,
    )
  })
  it('is undecidable when coverage is null', () => {
    expect(coverGoldAnswer(outcome(), { min: 0.5 })).toEqual({
      undecidable: 'q-1: coverage not computed (no answer or no gold answer)',
    })
  })
})

describe('toNotRegressFrom', () => {
  it('holds within the tolerance, including a drop of exactly the tolerance', () => {
    expect(0.9).toNotRegressFrom(0.91, { tolerance: 0.01 })
    expect(0.95).toNotRegressFrom(0.91, { tolerance: 0.01 })
  })
  it('fails on a drop beyond the tolerance with baseline, current and delta; .not passes then', () => {
    expect(0.85).not.toNotRegressFrom(0.91, { tolerance: 0.01, name: 'recall' })
    expect(() => expect(0.85).toNotRegressFrom(0.91, { tolerance: 0.01, name: 'recall' })).toThrow(
      'expected recall not to fall below its baseline by more than 0.01\n\nbaseline   0.9100\ncurrent    0.8500\ndelta      -0.0600 (tolerance 0.01)',
    )
  })
  it('is undecidable when either side is null', () => {
    expect(notRegressFrom(null, 0.5, { tolerance: 0.01, name: 'faithfulness' })).toEqual({
      undecidable: 'faithfulness: not computed in this run',
    })
    expect(notRegressFrom(0.5, null, { tolerance: 0.01, name: 'faithfulness' })).toEqual({
      undecidable: 'faithfulness: not in the baseline',
    })
  })
  it('is usable as an asymmetric matcher', () => {
    expect({ recall: 0.92 }).toEqual({ recall: expect.toNotRegressFrom(0.93, { tolerance: 0.01 }) })
  })
})
