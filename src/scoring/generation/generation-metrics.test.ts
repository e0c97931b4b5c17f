import { describe, expect, it } from 'vitest'
import { REFUSAL_SENTENCE } from '../../builtin/extractive-answerer.ts'
import { lexicalAnswerRelevancy } from './answer-relevancy.ts'
import { splitClaims } from './claims.ts'
import { contradictionHandled } from './contradiction-handled.ts'
import { goldCoverage } from './coverage.ts'
import { diagnose } from './diagnosis.ts'
import { lexicalFaithfulness } from './faithfulness.ts'
import { extractNumbers, keyFacts } from '../../text/key-facts.ts'
import { detectRefusal } from './refusal.ts'

describe('splitClaims', () => {
  it('keeps decimals, versions and abbreviations whole; splits list items and "; " clauses', () => {
    expect(
      splitClaims(
        'Version 2.5.1 adds e.g. tail sampling. The p99 is 3.5 s; logs stay 30 days.\n- Team: 15 days\n- Business: 30 days',
      ),
    ).toEqual([
      'Version 2.5.1 adds e.g. tail sampling.',
      'The p99 is 3.5 s',
      'logs stay 30 days.',
      'Team: 15 days',
      'Business: 30 days',
    ])
  })
  it('gives no claim for an empty answer', () => {
    expect(splitClaims('  \n ')).toEqual([])
  })
})

describe('extractNumbers and keyFacts', () => {
  it('normalises separators, units and trailing zeros; keeps versions', () => {
    expect(extractNumbers('USD 5,000 after a 90-day period, 2.50 GB, version 3.4.1, p99 and 15%')).toEqual([
      '5000',
      '90',
      '2.5',
      '3.4.1',
      '99',
      '15',
    ])
  })
  it('splits a gold answer into numbers and stemmed content terms', () => {
    expect(keyFacts('API keys expire after 90 days by default.')).toEqual({
      numbers: ['90'],
      terms: ['api', 'kei', 'expir', 'dai', 'default'],
    })
  })
})

describe('detectRefusal', () => {
  it.each([
    [REFUSAL_SENTENCE, 'refused'],
    ['The handbook does not say how long audit logs are kept.', 'refused'],
    ["I don't know.", 'refused'],
    ['', 'refused'],
    ['Traces are kept for 30 days on Business.', 'answered'],
    ['The material does not mention it directly; it is probably 30 days, as for logs on every paid tier.', 'unclear'],
  ])('%j -> %s', (answer, verdict) => {
    expect(detectRefusal(answer)).toBe(verdict)
  })
})

const context = [
  { chunkId: 'd1#1', text: 'Data Retention\nTraces are kept for 30 days on Business and 90 days on Enterprise.' },
  { chunkId: 'd2#1', text: 'Backups\nSnapshots are taken every 6 hours.' },
]

describe('lexicalFaithfulness', () => {
  it('scores supported / decidable claims and quotes the unsupported ones verbatim', () => {
    const result = lexicalFaithfulness(
      'Traces are kept for 30 days on Business. Snapshots are taken every 12 hours. Yes.',
      false,
      context,
    )
    // Claim 1: all terms in d1#1, 30 in context -> supported. Claim 2: terms in d2#1 but 12 is in no chunk -> unsupported.
    // "Yes." has no content term and no number -> undecidable, out of the denominator.
    expect(result).toMatchObject({
      value: 0.5,
      status: 'scored',
      numerator: 1,
      denominator: 2,
      unsupportedClaims: ['Snapshots are taken every 12 hours.'],
    })
    expect(result.claims.map((c) => [c.verdict, c.chunkId, c.missingNumbers])).toEqual([
      ['supported', 'd1#1', []],
      ['unsupported', 'd2#1', ['12']],
      ['undecidable', null, []],
    ])
  })
  it('finds a claim unsupported when too few of its terms are in any one chunk', () => {
    // "Enterprise customers get SCIM provisioning": terms enterpris, custom, scim, provis -> 1/4 in d1#1 < MIN_OVERLAP.
    const result = lexicalFaithfulness('Enterprise customers get SCIM provisioning.', false, context)
    expect(result.claims[0]).toMatchObject({ verdict: 'unsupported', overlap: 0.25, chunkId: 'd1#1' })
    expect(result.value).toBe(0)
  })
  it('is null when nothing is decidable, 1 for a refusal, null without an answer', () => {
    expect(lexicalFaithfulness('Yes. Sure.', false, context)).toMatchObject({
      value: null,
      status: 'nothing-decidable',
      denominator: 0,
    })
    expect(lexicalFaithfulness(REFUSAL_SENTENCE, true, context)).toMatchObject({ value: 1, status: 'refusal' })
    expect(lexicalFaithfulness(null, false, context)).toMatchObject({ value: null, status: 'no-answer' })
  })
})

describe('lexicalAnswerRelevancy', () => {
  it('is the share of the question terms the answer uses', () => {
    // question terms: long, trace, kept, busi; the answer uses trace, kept -> 2/4.
    expect(lexicalAnswerRelevancy('How long are traces kept on Business?', 'Traces are kept for 30 days.', false)).toEqual({
      value: 0.5,
      status: 'scored',
      numerator: 2,
      denominator: 4,
    })
  })
  it("scores a follow-up on its own terms, and one without any ('And then?') on the latest user turn that has some", () => {
    const history = [
      { role: 'user' as const, content: 'How long are traces kept on Business?' },
      { role: 'assistant' as const, content: 'Thirty days.' },
      { role: 'user' as const, content: 'What about it?' },
      { role: 'assistant' as const, content: 'It is the plan limit.' },
    ]
    // "And on Enterprise?": enterpris alone; the answer uses it -> 1/1.
    expect(lexicalAnswerRelevancy('And on Enterprise?', 'Enterprise keeps traces for 90 days.', false, history)).toEqual({
      value: 1,
      status: 'scored',
      numerator: 1,
      denominator: 1,
    })
    // "And after that?" has no content term, "What about it?" neither, so the first turn's stand in: long, trace, kept, busi -> 2/4.
    expect(lexicalAnswerRelevancy('And after that?', 'Traces are kept by contract.', false, history)).toEqual({
      value: 0.5,
      status: 'scored',
      numerator: 2,
      denominator: 4,
    })
    expect(lexicalAnswerRelevancy('And after that?', 'Traces are kept by contract.', false)).toMatchObject({
      value: null,
      status: 'empty-question',
    })
  })
  it('scores a refusal 0 and is null without an answer', () => {
    expect(lexicalAnswerRelevancy('How long are traces kept on Business?', REFUSAL_SENTENCE, true).value).toBe(0)
    expect(lexicalAnswerRelevancy('How long are traces kept on Business?', null, false).value).toBeNull()
  })
})

describe('goldCoverage', () => {
  it('is the share of the gold answer key facts in the answer, listing the missing ones', () => {
    // facts: 90, api, kei, expir, dai, default -> the answer lacks "default": 5/6.
    expect(goldCoverage('API keys expire after 90 days by default.', 'API keys expire after 90 days.', false)).toEqual({
      value: 5 / 6,
      status: 'scored',
      numerator: 5,
      denominator: 6,
      missing: ['default'],
    })
  })
  it('misses a wrong number even when every word matches', () => {
    expect(
      goldCoverage('API keys expire after 90 days by default.', 'API keys expire after 30 days by default.', false),
    ).toMatchObject({ value: 5 / 6, missing: ['90'] })
  })
  it('scores a refusal 0 and is null for a none question (no gold answer)', () => {
    expect(goldCoverage('API keys expire after 90 days.', REFUSAL_SENTENCE, true).value).toBe(0)
    expect(goldCoverage(null, 'anything', false)).toMatchObject({ value: null, status: 'no-gold-answer' })
  })
})

describe('contradictionHandled', () => {
  const base = {
    refused: false,
    goldAnswer: 'Medium findings must be patched within 30 days.',
    governingText: 'This notice replaces the old rule: medium findings are patched within 30 days.',
    supersededTexts: ['Medium findings are patched within 45 days; low within 90 days.'],
  }
  it('is handled when the answer carries the governing fact and no superseded one', () => {
    expect(contradictionHandled({ ...base, answer: 'Patch medium findings within 30 days.' })).toEqual({
      handled: true,
      governingFacts: ['30'],
      staleFacts: [],
    })
  })
  it('is not handled when the answer repeats the superseded fact', () => {
    expect(contradictionHandled({ ...base, answer: 'Medium findings: 45 days (previously), now 30 days.' })).toEqual({
      handled: false,
      governingFacts: ['30'],
      staleFacts: ['45'],
    })
  })
  it('is not handled by a refusal, and null without an answer', () => {
    expect(contradictionHandled({ ...base, answer: REFUSAL_SENTENCE, refused: true }).handled).toBe(false)
    expect(contradictionHandled({ ...base, answer: null }).handled).toBeNull()
  })
})

describe('diagnose', () => {
  it.each([
    [{ hit: true, refused: false, faithfulness: 1 }, 'healthy'],
    [{ hit: true, refused: false, faithfulness: 0.5 }, 'model ignores context'],
    [{ hit: true, refused: true, faithfulness: 1 }, 'model ignores context'],
    [{ hit: false, refused: true, faithfulness: 1 }, 'retrieval misses'],
    [{ hit: false, refused: false, faithfulness: 0.9 }, 'retrieval misses'],
    [{ hit: false, refused: false, faithfulness: 0.2 }, 'both broken'],
    [{ hit: true, refused: false, faithfulness: null }, null],
  ] as const)('%j -> %s', ({ refused, ...question }, diagnosis) => {
    expect(diagnose({ id: 'q', type: 'single', ...question }, refused)).toBe(diagnosis)
  })
  it('does not diagnose none questions', () => {
    expect(diagnose({ id: 'q', type: 'none', hit: false, faithfulness: 1 }, true)).toBeNull()
  })
})
