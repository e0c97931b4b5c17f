import type { FaithfulnessResult, ContextPassage } from '../scoring/generation/faithfulness.ts'
import type { CoverageResult } from '../scoring/generation/coverage.ts'
import type { MetricResult } from '../scoring/generation/metric-result.ts'
import type { RelevancyStatus } from '../scoring/generation/answer-relevancy.ts'
import type { RefusalVerdict } from '../scoring/generation/refusal.ts'
import type { HistoryTurn } from '../contract/golden-set-schema.ts'

/** What a judge is shown of one answered question. */
export interface JudgeInput {
  questionId: string
  question: string
  /**
   * A follow-up question's conversation before it, oldest first: its meaning depends on it ("and on the
   * Enterprise plan?"), so the judges read the question in its light. Absent for a standalone question.
   */
  history?: readonly HistoryTurn[]
  answer: string
  goldAnswer: string | null
  context: readonly ContextPassage[]
  /**
   * Which scoring of the same answer this is (EVAL_REPEATS): 0, the score, unless the judge is asked again
   * to measure its noise. A model judge puts it in its calls' cache key, so each repeat is its own call
   * and a rerun is answered from the cache; the offline judge ignores it (it gives the same verdict every time).
   */
  repeat?: number
}

/** A metric the model judge could not score: no valid output after its repair attempt (a judge_error). */
export interface JudgeError {
  metric: 'refusal' | 'faithfulness' | 'answerRelevancy' | 'coverage'
  message: string
}

/**
 * A judge's verdicts on one answer. The refusal verdict comes first: the other scores depend on it.
 * A metric listed in judgeErrors has a null value and the status 'judge-error', never a score.
 */
export interface Judgement {
  refusal: RefusalVerdict
  faithfulness: FaithfulnessResult
  answerRelevancy: MetricResult<RelevancyStatus>
  coverage: CoverageResult
  judgeErrors?: JudgeError[]
  /** The judge's own figure for the time it took (a judge on another thread); else the wall time of the call counts. */
  judgeMs?: number
}

/**
 * Scores answers. The offline judge (lexical, free, deterministic) is one implementation; the model
 * judge (Claude) is another. Scoring code sees only this interface.
 */
export interface Judge {
  readonly name: string
  judge(input: JudgeInput): Promise<Judgement>
}
