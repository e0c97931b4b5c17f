import { ANSWER_RELEVANCY, CLAIM_RECALL, COVERAGE, FAITHFULNESS } from '../contract/metrics/metric-table.ts'
import { lexicalAnswerRelevancy } from '../scoring/generation/answer-relevancy.ts'
import { goldCoverage } from '../scoring/generation/coverage.ts'
import { lexicalFaithfulness } from '../scoring/generation/faithfulness.ts'
import { generatorDiagnostics, lexicalClaimChecks, noDiagnostics } from '../scoring/generation/generator-diagnostics.ts'
import { detectRefusal } from '../scoring/generation/refusal.ts'
import type { Judge, Judgement, JudgeInput, Verdicts } from './judge.ts'

// The offline judge's lexical scorers: the package exports them, and the scripted model and the offline verifier use them.
export { goldCoverage, lexicalAnswerRelevancy, lexicalFaithfulness }

/**
 * Each judged metric's offline verdict, by metric name; here, not in dimensions/, so the offline judge and its
 * thread load no prompt, no zod, no model client.
 */
export const OFFLINE_SCORING = {
  [FAITHFULNESS.name]: (input: JudgeInput, refused: boolean) => lexicalFaithfulness(input.answer, refused, input.context),
  [ANSWER_RELEVANCY.name]: (input: JudgeInput, refused: boolean) =>
    lexicalAnswerRelevancy(input.question, input.answer, refused, input.history),
  [COVERAGE.name]: (input: JudgeInput, refused: boolean) => goldCoverage(input.goldAnswer, input.answer, refused),
  [CLAIM_RECALL.name]: (input: JudgeInput, refused: boolean) =>
    input.goldAnswer === null
      ? noDiagnostics('no-gold-answer')
      : generatorDiagnostics(
          lexicalClaimChecks(input.goldAnswer, input.answer, refused, input.context),
          new Set(input.answerChunkIds),
        ),
}

/** Each judged metric's offline verdict: the offline judge's, and the model judge's on a refusal (scored without a call). */
export function offlineVerdicts(input: JudgeInput, refused: boolean): Verdicts {
  return Object.fromEntries(Object.entries(OFFLINE_SCORING).map(([name, score]) => [name, score(input, refused)])) as Verdicts
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
