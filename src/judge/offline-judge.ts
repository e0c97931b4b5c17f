import { detectRefusal } from '../scoring/generation/refusal.ts'
import { verdictsOf } from './dimensions/index.ts'
import type { Judge, Judgement, JudgeInput } from './judge.ts'

/**
 * The offline judge: deterministic refusal patterns, then each judged metric's lexical scoring (per-claim
 * faithfulness, answer relevancy, gold-answer coverage: dimensions/). Free, and the same inputs always give
 * the same verdicts. An unclear refusal (a hedge with content) is scored as an answer.
 */
export const offlineJudge: Judge = {
  name: 'offline-lexical',
  async judge(input: JudgeInput): Promise<Judgement> {
    const refusal = detectRefusal(input.answer)
    const refused = refusal === 'refused'
    return { refusal, ...verdictsOf((dimension) => dimension.offline(input, refused)) }
  },
}
