import { describe, expect, it } from 'vitest'
import { offlineJudge } from '../../judge/offline-judge.ts'
import type { JudgeInput } from '../../judge/judge.ts'
import { blame } from './diagnosis.ts'
import { generatorDiagnostics, lexicalClaimChecks } from './generator-diagnostics.ts'
import { analysePassages } from './context-passage.ts'

// The hand-worked example of docs/metrics.md ("Generator diagnostics"). Content terms are Porter stems without
// stopwords ("keeps" -> keep, "kept" -> kept, "days" -> dai, "Business" -> busi).
//   c1 (an answer document's chunk): trace kept 30 dai busi plan
//   c2 (noise: another document's):  log kept 14 dai team plan
// Gold claims:
//   G1 "Business keeps traces for 30 days."  busi keep trace dai + 30: c1 has 3/4 >= 0.7 and 30 -> in context
//   G2 "Traces are deleted after export."    trace delet export: c1 1/3, c2 0/3 -> not in context
// Answer claims (the gold answer's terms: busi keep trace dai 30 delet export):
//   A1 "Traces are kept for 30 days on Business."  trace kept dai busi + 30: c1 4/4 -> c1; gold 3/4 and 30 -> correct
//   A2 "Logs are kept for 14 days."  log kept dai + 14: c2 3/3 -> c2 only; gold 1/3, no 14 -> wrong: noise
//   A3 "Exports are encrypted."      export encrypt: no chunk; gold 1/2 -> wrong: hallucination
//   A4 "Traces are deleted after export."  trace delet export: no chunk; gold 3/3 -> correct: self-knowledge
// G1 is in the answer (busi trace dai of 4, and 30); G2 too, but it is not in the context.
// claim recall 1/2; context utilisation 1/1 (G1); noise sensitivity 1/4; hallucination 1/4; self-knowledge 1/4.
const input: JudgeInput = {
  questionId: 'q-1',
  question: 'How long are traces kept on Business, and what happens after export?',
  answer:
    'Traces are kept for 30 days on Business. Logs are kept for 14 days. Exports are encrypted. Traces are deleted after export.',
  goldAnswer: 'Business keeps traces for 30 days. Traces are deleted after export.',
  context: [
    { chunkId: 'c1', text: 'Traces are kept for 30 days on the Business plan.' },
    { chunkId: 'c2', text: 'Logs are kept for 14 days on the Team plan.' },
  ],
  answerChunkIds: ['c1'],
}

const scored = (refused = false) =>
  generatorDiagnostics(
    lexicalClaimChecks(input.goldAnswer!, input.answer, refused, analysePassages(input.context)),
    new Set(input.answerChunkIds),
  )

describe('generator diagnostics with the offline judge (RAGChecker, lexical entailment)', () => {
  it('checks each gold claim and answer claim against every chunk and the other side', () => {
    expect(lexicalClaimChecks(input.goldAnswer!, input.answer, false, analysePassages(input.context))).toEqual({
      gold: [
        { claim: 'Business keeps traces for 30 days.', chunkIds: ['c1'], matched: true },
        { claim: 'Traces are deleted after export.', chunkIds: [], matched: true },
      ],
      answer: [
        { claim: 'Traces are kept for 30 days on Business.', chunkIds: ['c1'], matched: true },
        { claim: 'Logs are kept for 14 days.', chunkIds: ['c2'], matched: false },
        { claim: 'Exports are encrypted.', chunkIds: [], matched: false },
        { claim: 'Traces are deleted after export.', chunkIds: [], matched: true },
      ],
    })
  })

  it('gives the hand-worked values of the five metrics', () => {
    expect(scored()).toMatchObject({
      value: 0.5,
      status: 'scored',
      numerator: 1,
      denominator: 2,
      contextUtilisation: 1,
      noiseSensitivity: 0.25,
      hallucination: 0.25,
      selfKnowledge: 0.25,
    })
  })

  it('scores a refusal: no answer claim (shares null), nothing of the context used (0), claim recall as for an answer', () => {
    expect(scored(true)).toMatchObject({
      value: 0.5,
      contextUtilisation: 0,
      noiseSensitivity: null,
      hallucination: null,
      selfKnowledge: null,
      answer: [],
    })
  })

  it('is null with its reason without a gold answer (none questions) or without a decidable gold claim', async () => {
    const none = await offlineJudge.judge({ ...input, goldAnswer: null })
    expect(none.claimRecall).toMatchObject({
      value: null,
      status: 'no-gold-answer',
      contextUtilisation: null,
      hallucination: null,
    })
    // "Yes." has one content term and no number: undecidable, so there is no gold claim to check.
    const yes = await offlineJudge.judge({ ...input, goldAnswer: 'Yes.' })
    expect(yes.claimRecall).toMatchObject({ value: null, status: 'no-gold-claims', noiseSensitivity: null, selfKnowledge: null })
  })

  it('leaves context utilisation null when the context holds no gold claim (the retriever missed, nothing to use)', () => {
    const missed = generatorDiagnostics(
      lexicalClaimChecks(input.goldAnswer!, input.answer, false, analysePassages([input.context[1]!])),
      new Set(),
    )
    // G1 and G2 in no chunk: claim recall 0/2; A2 now from c2 with no answer chunk at all: still noise, 1/4.
    expect(missed).toMatchObject({ value: 0, contextUtilisation: null, noiseSensitivity: 0.25, hallucination: 0.25 })
  })

  it('counts a wrong claim that a chunk of an answer document also entails as not noise', () => {
    // With c2 an answer document's chunk, A2 comes from relevant material: RAGChecker's other noise sensitivity.
    const checks = lexicalClaimChecks(input.goldAnswer!, input.answer, false, analysePassages(input.context))
    expect(generatorDiagnostics(checks, new Set(['c1', 'c2'])).noiseSensitivity).toBe(0)
  })
})

describe('the blame: whose failure the answer is', () => {
  const question = (values: object) => ({ id: 'q-1', type: 'single' as const, ...values })

  it("is the generator's in the example: half the gold claims in the context, but half the answer's claims wrong", () => {
    // claim recall 0.5 is not below 0.5; hallucination + noise = 0.5, so 0.5 of the claims are right, below 0.8.
    expect(
      blame(
        question({ claimRecall: 0.5, contextUtilisation: 1, noiseSensitivity: 0.25, hallucination: 0.25, selfKnowledge: 0.25 }),
      ),
    ).toBe('generator')
  })

  it("is the retriever's below half the gold claims in the context, whatever the answer did", () => {
    expect(blame(question({ claimRecall: 0.4999, contextUtilisation: 0, hallucination: 1 }))).toBe('retriever')
  })

  it("is the generator's when it used under half of what the context held, and nobody's when all is well", () => {
    expect(blame(question({ claimRecall: 1, contextUtilisation: 0.3333, hallucination: 0, noiseSensitivity: 0 }))).toBe(
      'generator',
    )
    // A fifth of the claims wrong is exactly 1 - 0.8: not below it.
    expect(blame(question({ claimRecall: 1, contextUtilisation: 0.5, hallucination: 0.2, noiseSensitivity: 0 }))).toBeNull()
  })

  it('is null when claim recall is unknown (a none question, no gold answer, not judged)', () => {
    expect(blame(question({ claimRecall: null, contextUtilisation: 0 }))).toBeNull()
    expect(blame({ id: 'q-9', type: 'none' })).toBeNull()
  })
})
