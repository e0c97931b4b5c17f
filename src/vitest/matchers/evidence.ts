import type { QuestionOutcome } from '../../contract/report-schema.ts'
import type { FunnelEntry, StageOutcome } from '../../contract/question-outcome-schema.ts'
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
  Partial<Pick<QuestionOutcome, 'blame' | 'fabricatedCitations' | 'stages' | 'funnel'>>

/** Where an answer document was lost, in words: "t-014 retrieved at rank 3, cut by rerank". */
export function describeLoss({ docId, lost, stage, rank }: FunnelEntry): string {
  const where = {
    'never-retrieved': 'never retrieved',
    stage: `retrieved at rank ${rank}, cut by ${stage}`,
    budget: `ranked ${rank}, cut by the context budget`,
    unused: 'in the context, unused by the answer',
    misstated: 'in the context, misstated by the answer',
    survived: 'in the context, used by the answer',
    'in-context': 'in the context (no answer judged)',
  }[lost]
  return `${docId} ${where}`
}

const rankedLines = (ranked: StageOutcome['topRanked']) =>
  ranked.length === 0
    ? '  (nothing ranked)'
    : ranked.map((r, i) => `  ${String(i + 1).padStart(2)}. ${r.chunkId}  ${r.score.toFixed(4)}`).join('\n')

/** Each stage's top chunks, in pipeline order: `stage rerank (5 chunks)`, then its top 10. */
export const describeStages = (stages: readonly StageOutcome[]): string[] =>
  stages.flatMap((s) => [
    `stage ${s.name}${s.query === undefined ? '' : ` (query: ${s.query})`}: ${s.ranked} chunk${s.ranked === 1 ? '' : 's'}`,
    rankedLines(s.topRanked),
  ])

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
  const lines = [
    `question   ${outcome.id} [${outcome.type}] ${outcome.question}`,
    // A follow-up question means what its conversation makes it mean: the turns before it, oldest first.
    ...(outcome.history ?? []).map(
      (turn, i) => `${i === 0 ? 'follows   ' : '          '} ${turn.role.padEnd(9)} ${turn.content.replace(/\s+/g, ' ')}`,
    ),
    ...(outcome.userContext ? [`user       ${JSON.stringify(outcome.userContext)}`] : []),
    `expected   ${expected}${governing}`,
    ...(outcome.funnel ?? []).map((entry, i) => `${i === 0 ? 'lost      ' : '          '} ${describeLoss(entry)}`),
    `context    ${outcome.contextTokens} tokens:`,
    context,
    ...describeStages(outcome.stages ?? []),
    'top-10 ranked (chunk, score):',
    rankedLines(outcome.topRanked),
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
