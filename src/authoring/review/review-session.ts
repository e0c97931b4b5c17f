import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { acceptedQuestion, commitAppend, planAppend, planRewrite, type AppendPlan, type GoldenTarget } from './append-accepted.ts'
import type { ReviewDraft } from './kept-drafts.ts'
import { writeReviewState, type PendingEdit, type ReviewDecision, type ReviewState } from './review-state.ts'

export const REVIEW_ACTIONS = ['accept', 'edit', 'reject', 'skip', 'quit'] as const
export type ReviewAction = (typeof REVIEW_ACTIONS)[number]

/** What golden review asks the reviewer (the terminal's prompts; a script in tests). */
export interface ReviewPrompts {
  action(draft: ReviewDraft): Promise<ReviewAction>
  editQuestion(current: string): Promise<string>
  editGoldAnswer(current: string): Promise<string>
  rejectReason(): Promise<string>
}

export interface ReviewTally {
  accepted: { draftId: string; goldenId: string }[]
  rejected: string[]
  skipped: string[]
  /** The reviewer quit with drafts still to see. */
  quit: boolean
}

export interface ReviewSession {
  /** The kept drafts no decision covers yet, in file order. */
  pending: readonly ReviewDraft[]
  state: ReviewState
  stateFile: string
  target: GoldenTarget
  reviewer: string
  /** The card of a draft as it stands (after edits): question, passages with support marked, what the system retrieves. */
  card: (draft: ReviewDraft, question: GoldenQuestion, position: number, of: number) => Promise<string>
  prompts: ReviewPrompts
  log: (line: string) => void
}

/**
 * Decisions first, then the golden set: a review stopped between the two shows the draft again (reconcileState), never
 * appends it twice. A golden set that cannot be written takes the decisions back.
 */
export function recordAndCommit(
  plan: AppendPlan | null,
  decisions: Record<string, ReviewDecision>,
  session: Pick<ReviewSession, 'state' | 'stateFile'>,
): void {
  const before = { decisions: { ...session.state.decisions }, edits: { ...session.state.edits } }
  Object.assign(session.state.decisions, decisions)
  for (const id of Object.keys(decisions)) delete session.state.edits[id]
  writeReviewState(session.stateFile, session.state)
  try {
    if (plan !== null) commitAppend(plan)
  } catch (error) {
    Object.assign(session.state, before)
    writeReviewState(session.stateFile, session.state)
    throw error
  }
}

/**
 * The review on a terminal (docs/golden-set.md, 'golden:review'): each decision and each edit is saved as made, so
 * quitting loses nothing; skipped drafts come back on the next run, with the edit not accepted yet.
 */
export async function runReview(session: ReviewSession): Promise<ReviewTally> {
  const tally: ReviewTally = { accepted: [], rejected: [], skipped: [], quit: false }
  const { pending, prompts, log, reviewer, state, target } = session
  for (const [index, draft] of pending.entries()) {
    const saved = state.edits[draft.id]
    const resumed = saved?.draftHash === draft.hash
    let question: GoldenQuestion = resumed ? { ...draft.question, ...withoutHash(saved) } : draft.question
    let edited = resumed
    if (resumed) log(`${draft.id}: shown with your edit from an earlier session, not accepted yet`)
    let card = await session.card(draft, question, index + 1, pending.length)
    // A question a script accepted unreviewed is decided in place, on the decision of the draft it came from.
    const key = draft.inGolden ? draftOfGoldenId(state, draft.id) : draft.id
    for (;;) {
      log(card)
      const action = await prompts.action(draft)
      if (action === 'quit') return { ...tally, quit: true }
      if (action === 'skip') {
        tally.skipped.push(draft.id)
        break
      }
      if (action === 'edit') {
        const text = await prompts.editQuestion(question.question)
        const goldAnswer = question.type === 'none' ? undefined : await prompts.editGoldAnswer(question.goldAnswer ?? '')
        edited ||= text !== question.question || goldAnswer !== question.goldAnswer
        question = { ...question, question: text, ...(goldAnswer === undefined ? {} : { goldAnswer }) }
        state.edits[draft.id] = { question: text, ...(goldAnswer === undefined ? {} : { goldAnswer }), draftHash: draft.hash }
        writeReviewState(session.stateFile, state)
        card = await session.card(draft, question, index + 1, pending.length)
        continue
      }
      const at = new Date().toISOString()
      if (action === 'reject') {
        const reason = (await prompts.rejectReason()).trim()
        const draftHash = draft.inGolden && key !== null ? state.decisions[key]!.draftHash : draft.hash
        const decision: ReviewDecision = {
          decision: 'rejected',
          ...(reason === '' ? {} : { reason }),
          by: reviewer,
          at,
          draftHash,
        }
        const plan = draft.inGolden ? await planRewrite(target, draft.id, null) : null
        if (plan === undefined) {
          log(gone(draft.id, target.file))
          break
        }
        recordAndCommit(plan, key === null ? {} : { [key]: decision }, session)
        tally.rejected.push(draft.id)
        log(`rejected ${draft.id}${plan === null ? '' : `: removed from ${target.file}`}${reason === '' ? '' : ` (${reason})`}`)
        break
      }
      const build = (id: string) => acceptedQuestion(question, id, { reviewedBy: reviewer, reviewedAt: at })
      const plan = draft.inGolden
        ? await planRewrite(target, draft.id, build(draft.id))
        : await planAppend(target, [{ key: draft.id, build }])
      if (plan === undefined) {
        log(gone(draft.id, target.file))
        break
      }
      const refusal = plan.refused[0]
      if (refusal !== undefined) {
        log(refused(draft.id, target.file, refusal.errors))
        continue
      }
      const goldenId = plan.appended[0]?.question.id ?? draft.id
      const earlier = key === null ? undefined : state.decisions[key]
      const decision: ReviewDecision | undefined = draft.inGolden
        ? earlier?.decision === 'accepted'
          ? { ...earlier, question: question.question, edited: earlier.edited || edited, unreviewed: false, by: reviewer, at }
          : undefined
        : {
            decision: 'accepted',
            goldenId,
            question: question.question,
            edited,
            unreviewed: false,
            by: reviewer,
            at,
            draftHash: draft.hash,
          }
      recordAndCommit(plan, key === null || decision === undefined ? {} : { [key]: decision }, session)
      tally.accepted.push({ draftId: draft.id, goldenId })
      log(
        draft.inGolden
          ? `reviewed ${draft.id}${edited ? ' (edited)' : ''}: ${target.file} now records ${reviewer} as its reviewer`
          : `accepted ${draft.id}${edited ? ' (edited)' : ''}: appended to ${target.file} as ${goldenId}`,
      )
      break
    }
  }
  return tally
}

/** A question a colleague removed from the golden set while it waited for its review: nothing to decide. */
function gone(id: string, file: string): string {
  return `${id}: ${file} holds it no more (removed since this review started); moving on`
}

function withoutHash({ draftHash: _, ...edit }: PendingEdit): Omit<PendingEdit, 'draftHash'> {
  return edit
}

function refused(id: string, file: string, errors: readonly string[]): string {
  return `not written: ${id} would break golden:check on ${file}:\n${errors.map((e) => `  ${e}`).join('\n')}\nedit it, reject it or skip it`
}

/** The draft a golden question was accepted from, by the review state; null when it came from elsewhere. */
function draftOfGoldenId(state: ReviewState, goldenId: string): string | null {
  const entry = Object.entries(state.decisions).find(([, d]) => d.decision === 'accepted' && d.goldenId === goldenId)
  return entry === undefined ? null : entry[0]
}

/** Questions a script accepted unreviewed, for a person to read: accepting records the review, rejecting removes it. */
export function unreviewedInGolden(golden: readonly GoldenQuestion[], file: string): ReviewDraft[] {
  return golden
    .filter((q) => q.provenance?.unreviewed === true)
    .map((question) => ({
      id: question.id,
      where: `${file}, accepted unreviewed`,
      question,
      verdict: { status: 'kept' as const, reasons: [] },
      hash: '',
      inGolden: true as const,
    }))
}

/**
 * --accept-kept: every pending kept draft in one atomic write, recorded as unreviewed; a draft that would break
 * golden:check is refused with why, the others still go in.
 */
export async function acceptAllKept(
  session: Pick<ReviewSession, 'pending' | 'state' | 'stateFile' | 'target' | 'reviewer'>,
): Promise<{ plan: AppendPlan }> {
  const at = new Date().toISOString()
  const plan = await planAppend(
    session.target,
    session.pending.map((draft) => ({
      key: draft.id,
      build: (id: string) => acceptedQuestion(draft.question, id, { unreviewed: true }),
    })),
  )
  const hashes = new Map(session.pending.map((d) => [d.id, d.hash]))
  const decisions: Record<string, ReviewDecision> = {}
  for (const { key, question } of plan.appended)
    decisions[key] = {
      decision: 'accepted',
      goldenId: question.id,
      question: question.question,
      edited: false,
      unreviewed: true,
      by: session.reviewer,
      at,
      draftHash: hashes.get(key)!,
    }
  if (plan.appended.length > 0) recordAndCommit(plan, decisions, session)
  return { plan }
}

/**
 * The drafts still to review. An accepted draft the golden set no longer holds (a stopped review, a removal) is
 * undecided again; a decision on an earlier draft of the same id (drafted and verified anew) does not apply.
 */
export function pendingDrafts(
  kept: readonly ReviewDraft[],
  state: ReviewState,
  golden: readonly GoldenQuestion[],
): { pending: ReviewDraft[]; notes: string[] } {
  const notes: string[] = []
  const byId = new Map(golden.map((q) => [q.id, q]))
  const pending: ReviewDraft[] = []
  for (const draft of kept) {
    const decision = state.decisions[draft.id]
    if (decision === undefined) {
      pending.push(draft)
      continue
    }
    if (decision.draftHash !== draft.hash) {
      notes.push(`${draft.id} changed since it was ${decision.decision} on ${decision.at}: shown again`)
      delete state.decisions[draft.id]
      pending.push(draft)
      continue
    }
    if (decision.decision === 'accepted' && byId.get(decision.goldenId)?.question !== decision.question) {
      notes.push(
        `${draft.id} was accepted as ${decision.goldenId}, which ${state.goldenSet} does not hold (a review stopped ` +
          'before writing it, or it was removed since): shown again',
      )
      delete state.decisions[draft.id]
      pending.push(draft)
    }
  }
  return { pending, notes }
}
