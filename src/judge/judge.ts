import { citedSentences, type CitedSentence } from '../scoring/generation/citations.ts'
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
  /** A follow-up's conversation before it, oldest first: the judges read the question in its light. */
  history?: readonly HistoryTurn[]
  /** The answer without its citation markers (stripCitationMarkers). */
  answer: string
  /** The answer's sentences and what each cites (citedSentences); absent: those of `answer`'s own markers. */
  cited?: readonly CitedSentence[]
  goldAnswer: string | null
  context: readonly ContextPassage[]
  /** The context's chunks of an answer document (noise sensitivity's gold chunks); absent: none known. */
  answerChunkIds?: readonly string[]
  /**
   * Which scoring of the answer this is (EVAL_REPEATS; 0 = the score): in a model judge's cache key, so each
   * repeat is its own call and a rerun hits the cache; the deterministic offline judge ignores it.
   */
  repeat?: number
}

/** A metric the model judge could not score: no valid output after its repair attempt (a judge_error). */
export interface JudgeError {
  metric: 'refusal' | JudgedMetric
  message: string
}

/**
 * A judge's verdicts on one answer; refusal first, as the other scores depend on it. A metric in judgeErrors is
 * null with status 'judge-error'.
 */
export type Judgement = Verdicts & {
  refusal: RefusalVerdict
  judgeErrors?: JudgeError[]
  /** The judge's own figure for the time it took (a judge on another thread); else the wall time of the call counts. */
  judgeMs?: number
}

/** Scores answers: the offline judge and the model judge implement it; scoring code sees only this. */
export interface Judge {
  readonly name: string
  judge(input: JudgeInput): Promise<Judgement>
}

/** The answer's cited sentences: as given, else parsed from the answer's own `[n]` markers. */
export const citedOf = (input: JudgeInput): readonly CitedSentence[] =>
  input.cited ??
  citedSentences(
    input.answer,
    input.context.map((c) => c.chunkId),
  )
