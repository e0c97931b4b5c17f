import { ANSWER_RELEVANCY, CITATION_PRECISION, CLAIM_RECALL, COVERAGE, FAITHFULNESS } from '../contract/metrics/metric-table.ts'
import { lexicalAnswerRelevancy } from '../scoring/generation/answer-relevancy.ts'
import { citationScores, type CitationResult, type CitedSentence } from '../scoring/generation/citations.ts'
import { analysePassages, type AnalysedPassage } from '../scoring/generation/context-passage.ts'
import { goldCoverage } from '../scoring/generation/coverage.ts'
import { faithfulnessOf, lexicalFaithfulness } from '../scoring/generation/faithfulness.ts'
import { generatorDiagnostics, lexicalClaimChecks, noDiagnostics } from '../scoring/generation/generator-diagnostics.ts'
import { detectRefusal } from '../scoring/generation/refusal.ts'
import { citedOf, type Judge, type Judgement, type JudgeInput, type Verdicts } from './judge.ts'

// The offline judge's lexical scorers: the package exports them, and the scripted model and the offline verifier use them.
export { goldCoverage, lexicalAnswerRelevancy, lexicalFaithfulness }

/**
 * Whether a sentence needs support: a statement of fact, i.e. it has a decidable claim (MIN_DECIDABLE_TERMS content
 * terms or a number, as faithfulness decides), in an answer that is not a refusal. A connective sentence does not.
 */
export const needsSupport = (sentence: string, refused: boolean): boolean =>
  !refused && faithfulnessOf(sentence, false, []).status === 'scored'

/**
 * The offline judge's citations: a cited chunk supports a sentence when it lexically supports one of its claims, and
 * the sentence is supported when its cited chunks support every decidable claim (faithfulness's lexical support).
 */
export function lexicalCitations(
  sentences: readonly CitedSentence[],
  refused: boolean,
  context: readonly AnalysedPassage[],
): CitationResult {
  const passage = new Map(context.map((c) => [c.chunkId, c]))
  return citationScores(
    sentences.map((s) => {
      const chunks = s.cited.map((id) => passage.get(id)!)
      return {
        ...s,
        needsSupport: needsSupport(s.sentence, refused),
        supportedBy: s.cited.filter((id) => faithfulnessOf(s.sentence, false, [passage.get(id)!]).numerator > 0),
        supported: chunks.length > 0 && faithfulnessOf(s.sentence, false, chunks).value === 1,
      }
    }),
  )
}

/**
 * Each judged metric's offline verdict, by metric name, from the input and its context passages analysed once for all
 * of them; here, not in dimensions/, so the offline judge and its thread load no prompt, no zod, no model client.
 */
export const OFFLINE_SCORING = {
  [FAITHFULNESS.name]: (input: JudgeInput, refused: boolean, passages: readonly AnalysedPassage[]) =>
    faithfulnessOf(input.answer, refused, passages),
  [ANSWER_RELEVANCY.name]: (input: JudgeInput, refused: boolean) =>
    lexicalAnswerRelevancy(input.question, input.answer, refused, input.history),
  [COVERAGE.name]: (input: JudgeInput, refused: boolean) => goldCoverage(input.goldAnswer, input.answer, refused),
  [CLAIM_RECALL.name]: (input: JudgeInput, refused: boolean, passages: readonly AnalysedPassage[]) =>
    input.goldAnswer === null
      ? noDiagnostics('no-gold-answer')
      : generatorDiagnostics(
          lexicalClaimChecks(input.goldAnswer, input.answer, refused, passages),
          new Set(input.answerChunkIds),
        ),
  [CITATION_PRECISION.name]: (input: JudgeInput, refused: boolean, passages: readonly AnalysedPassage[]) =>
    lexicalCitations(citedOf(input), refused, passages),
}

/** Each judged metric's offline verdict: the offline judge's, and the model judge's on a refusal (scored without a call). */
export function offlineVerdicts(input: JudgeInput, refused: boolean): Verdicts {
  const passages = analysePassages(input.context)
  return Object.fromEntries(
    Object.entries(OFFLINE_SCORING).map(([name, score]) => [name, score(input, refused, passages)]),
  ) as Verdicts
}

/**
 * The offline judge: refusal patterns, lexical faithfulness, relevancy, coverage and generator diagnostics; free and
 * deterministic. An unclear refusal is scored as an answer.
 */
export const offlineJudge: Judge = {
  name: 'offline-lexical',
  async judge(input: JudgeInput): Promise<Judgement> {
    const refusal = detectRefusal(input.answer)
    return { refusal, ...offlineVerdicts(input, refusal === 'refused') }
  },
}
