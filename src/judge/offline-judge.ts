import { lexicalAnswerRelevancy } from '../scoring/generation/answer-relevancy.ts'
import { goldCoverage } from '../scoring/generation/coverage.ts'
import { lexicalFaithfulness } from '../scoring/generation/faithfulness.ts'
import { detectRefusal } from '../scoring/generation/refusal.ts'
import type { Judge, Judgement, JudgeInput } from './judge.ts'

/**
 * The offline judge: deterministic refusal patterns, per-claim lexical faithfulness, lexical answer
 * relevancy and gold-answer coverage. Free, and the same inputs always give the same verdicts.
 * An unclear refusal (a hedge with content) is scored as an answer.
 */
export const offlineJudge: Judge = {
  name: 'offline-lexical',
  async judge(input: JudgeInput): Promise<Judgement> {
    const refusal = detectRefusal(input.answer)
    const refused = refusal === 'refused'
    return {
      refusal,
      faithfulness: lexicalFaithfulness(input.answer, refused, input.context),
      answerRelevancy: lexicalAnswerRelevancy(input.question, input.answer, refused, input.history),
      coverage: goldCoverage(input.goldAnswer, input.answer, refused),
    }
  },
}
