import { extractNumbers } from '../../text/key-facts.ts'

export interface ContradictionInput {
  answer: string | null
  refused: boolean
  goldAnswer: string | null
  /** Text of the governing document. */
  governingText: string
  /** Texts of the other documents of the disagreement (the superseded ones). */
  supersededTexts: readonly string[]
}

export interface ContradictionResult {
  handled: boolean | null
  /** Gold-answer numbers the answer carries (the governing facts). */
  governingFacts: string[]
  /** Numbers only the superseded documents state that the answer repeats (stale facts). */
  staleFacts: string[]
}

/**
 * A contradiction answer follows the governing document: it carries one of the gold answer's numbers and none
 * that only the superseded documents state (numbers carry the facts that disagree). A refusal does not handle
 * it; null without an answer or a gold answer.
 */
export function contradictionHandled(input: ContradictionInput): ContradictionResult {
  if (input.answer === null || input.goldAnswer === null) return { handled: null, governingFacts: [], staleFacts: [] }
  if (input.refused) return { handled: false, governingFacts: [], staleFacts: [] }
  const answerNumbers = new Set(extractNumbers(input.answer))
  const goldNumbers = new Set(extractNumbers(input.goldAnswer))
  const governingNumbers = new Set(extractNumbers(input.governingText))
  const staleCandidates = new Set(
    input.supersededTexts.flatMap((text) => extractNumbers(text)).filter((n) => !governingNumbers.has(n) && !goldNumbers.has(n)),
  )
  const governingFacts = [...goldNumbers].filter((n) => answerNumbers.has(n))
  const staleFacts = [...staleCandidates].filter((n) => answerNumbers.has(n))
  const carriesGoverning = goldNumbers.size === 0 || governingFacts.length > 0
  return { handled: carriesGoverning && staleFacts.length === 0, governingFacts, staleFacts }
}
