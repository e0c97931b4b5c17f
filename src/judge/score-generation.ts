import type { Judgement } from './judge.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'
import { contradictionHandled } from '../scoring/generation/contradiction-handled.ts'
import { diagnose } from '../scoring/generation/diagnosis.ts'

const rounded = (value: number | null) => (value === null ? null : round4(value))

/**
 * Adds a judgement of the question's answer to its retrieval outcome, a pure function: the refusal,
 * faithfulness with its unsupported claims, relevancy, coverage, for contradiction questions whether
 * the answer follows the governing document (docText gives the documents' texts), and the diagnosis.
 */
export function scoreGeneration(
  outcome: QuestionOutcome,
  judgement: Judgement,
  docText: (docId: string) => string,
): QuestionOutcome {
  const refused = judgement.refusal === 'refused'
  const answer = outcome.answer
  const contradiction =
    outcome.type === 'contradiction' && outcome.governingDocId !== null
      ? contradictionHandled({
          answer,
          refused,
          goldAnswer: outcome.goldAnswer,
          governingText: docText(outcome.governingDocId),
          supersededTexts: outcome.answerDocIds.filter((id) => id !== outcome.governingDocId).map(docText),
        })
      : null
  const { faithfulness, answerRelevancy, coverage } = judgement
  return {
    ...outcome,
    refused: judgement.refusal === 'unclear' ? null : refused,
    faithfulness: rounded(faithfulness.value),
    unsupportedClaims: faithfulness.unsupportedClaims,
    answerRelevancy: rounded(answerRelevancy.value),
    coverage: rounded(coverage.value),
    contradictionHandled: contradiction?.handled ?? null,
    diagnosis: diagnose({ answerable: outcome.type !== 'none', hit: outcome.hit, refused, faithfulness: faithfulness.value }),
    generation: {
      refusal: judgement.refusal,
      faithfulness: {
        status: faithfulness.status,
        numerator: faithfulness.numerator,
        denominator: faithfulness.denominator,
        claims: faithfulness.claims.map((c) => ({ ...c, overlap: rounded(c.overlap) })),
      },
      answerRelevancy: {
        status: answerRelevancy.status,
        numerator: answerRelevancy.numerator,
        denominator: answerRelevancy.denominator,
      },
      coverage: {
        status: coverage.status,
        numerator: coverage.numerator,
        denominator: coverage.denominator,
        missing: coverage.missing,
      },
      contradiction: contradiction && { governingFacts: contradiction.governingFacts, staleFacts: contradiction.staleFacts },
      judgeErrors: judgement.judgeErrors ?? [],
    },
  }
}
