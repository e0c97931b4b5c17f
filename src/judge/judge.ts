import type { ContextPassage } from '../scoring/generation/context-passage.ts'
import type { RefusalVerdict } from '../scoring/generation/refusal.ts'
import type { HistoryTurn } from '../contract/golden-set-schema.ts'
import type { OFFLINE_SCORING } from './offline-judge.ts'

/** Each judged metric's verdict, under its metric's name. */
export type Verdicts = { [Name in keyof typeof OFFLINE_SCORING]: ReturnType<(typeof OFFLINE_SCORING)[Name]> }

/** The name of a metric the judges score. */
export type JudgedMetric = keyof Verdicts

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
  metric: 'refusal' | JudgedMetric
  message: string
}

/**
 * A judge's verdicts on one answer. The refusal verdict comes first: the other scores depend on it.
 * A metric listed in judgeErrors has a null value and the status 'judge-error', never a score.
 */
export type Judgement = Verdicts & {
  refusal: RefusalVerdict
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
