import type { FaithfulnessResult, ContextPassage } from '../scoring/generation/faithfulness.ts'
import type { CoverageResult } from '../scoring/generation/coverage.ts'
import type { MetricResult } from '../scoring/generation/metric-result.ts'
import type { RelevancyStatus } from '../scoring/generation/answer-relevancy.ts'
import type { RefusalVerdict } from '../scoring/generation/refusal.ts'

/** What a judge is shown of one answered question. */
export interface JudgeInput {
  questionId: string
  question: string
  answer: string
  goldAnswer: string | null
  context: readonly ContextPassage[]
}

/** A judge's verdicts on one answer. The refusal verdict comes first: the other scores depend on it. */
export interface Judgement {
  refusal: RefusalVerdict
  faithfulness: FaithfulnessResult
  answerRelevancy: MetricResult<RelevancyStatus>
  coverage: CoverageResult
}

/**
 * Scores answers. The offline judge (lexical, free, deterministic) is one implementation; the model
 * judge (Claude) is another. Scoring code sees only this interface.
 */
export interface Judge {
  readonly name: string
  judge(input: JudgeInput): Promise<Judgement>
}
