import { describeEvidence, describeLoss, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** Lost before the final ranking: what the stages (or retrieval itself) cut, as the loss funnel says. */
const CUT_BY_STAGES: ReadonlySet<string> = new Set(['never-retrieved', 'stage'])

/**
 * toSurviveStages(docIds?): each named answer doc (default: every answer doc of the funnel) was retrieved and kept by
 * every stage into the final ranking; what happens after (the budget, the answer) is other matchers' concern.
 */
export function surviveStages(outcome: QuestionEvidence, docIds?: readonly string[]): MatcherVerdict {
  const funnel = outcome.funnel
  if (funnel == null) return { undecidable: `${outcome.id} has no loss funnel (a none question has no answer docs)` }
  const named = docIds ?? funnel.map((entry) => entry.docId)
  const unknown = named.filter((id) => !funnel.some((entry) => entry.docId === id))
  if (unknown.length > 0)
    return {
      undecidable: `${unknown.join(', ')} not among the answer docs of ${outcome.id} (${funnel.map((e) => e.docId).join(', ')})`,
    }
  const cut = funnel.filter((entry) => named.includes(entry.docId) && CUT_BY_STAGES.has(entry.lost))
  return {
    pass: cut.length === 0,
    claim: `${named.join(', ')} of ${outcome.id} to survive every stage${cut.length === 0 ? '' : ` (${cut.map(describeLoss).join('; ')})`}`,
    evidence: () => describeEvidence(outcome),
  }
}
