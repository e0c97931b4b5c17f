import type { QuestionOutcome } from '../../contract/report-schema.ts'
import { BLAME_REASONS } from '../../contract/diagnoses.ts'

/** The evidence of one question, as failure messages and UI annotations show it. */
export type QuestionEvidence = Pick<
  QuestionOutcome,
  | 'id'
  | 'type'
  | 'question'
  | 'userContext'
  | 'history'
  | 'answerDocIds'
  | 'governingDocId'
  | 'context'
  | 'contextTokens'
  | 'topRanked'
  | 'answer'
  | 'unsupportedClaims'
> &
  Partial<Pick<QuestionOutcome, 'blame' | 'fabricatedCitations'>>

/** Multi-line evidence: expected docs, the context with token counts, the top-10 ranking with scores, the answer, the blame. */
export function describeEvidence(outcome: QuestionEvidence): string {
  const expected = outcome.answerDocIds.length === 0 ? '(none: the corpus has no answer)' : outcome.answerDocIds.join(', ')
  const governing = outcome.governingDocId ? ` (governing: ${outcome.governingDocId})` : ''
  const context =
    outcome.context.length === 0
      ? outcome.topRanked.length === 0
        ? '  (empty: nothing was ranked)'
        : '  (empty: the first ranked chunk did not fit the budget)'
      : outcome.context.map((c) => `  ${c.chunkId}  ${c.tokens} tokens`).join('\n')
  const ranked =
    outcome.topRanked.length === 0
      ? '  (nothing ranked)'
      : outcome.topRanked.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.chunkId}  ${r.score.toFixed(4)}`).join('\n')
  const lines = [
    `question   ${outcome.id} [${outcome.type}] ${outcome.question}`,
    // A follow-up question means what its conversation makes it mean: the turns before it, oldest first.
    ...(outcome.history ?? []).map(
      (turn, i) => `${i === 0 ? 'follows   ' : '          '} ${turn.role.padEnd(9)} ${turn.content.replace(/\s+/g, ' ')}`,
    ),
    ...(outcome.userContext ? [`user       ${JSON.stringify(outcome.userContext)}`] : []),
    `expected   ${expected}${governing}`,
    `context    ${outcome.contextTokens} tokens:`,
    context,
    'top-10 ranked (chunk, score):',
    ranked,
  ]
  if (outcome.answer !== null) lines.push(`answer     ${outcome.answer}`)
  if (outcome.unsupportedClaims && outcome.unsupportedClaims.length > 0) {
    lines.push('unsupported claims:', ...outcome.unsupportedClaims.map((claim) => `  - "${claim}"`))
  }
  if (outcome.blame) lines.push(`blame      ${BLAME_REASONS[outcome.blame]}`)
  // A citation outside the context, by name: `[7]` past a 5-chunk context, or the chunk id the system made up.
  if (outcome.fabricatedCitations?.length) lines.push(`fabricated citations: ${outcome.fabricatedCitations.join(', ')}`)
  return lines.join('\n')
}
