import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { InputError } from '../../contract/input-error.ts'
import { z } from 'zod'
import { readJsonFile } from '../../files/read-json-file.ts'
import { writeFileAtomic } from '../../files/write-file-atomic.ts'

/** Who decided when, on which version of the draft (every decision ends with them). */
const decided = { by: z.string().min(1), at: z.string().min(1), draftHash: z.string().min(1) }

/** One decision of `golden review` on a draft; skipped drafts have none (they are shown again). */
export const ReviewDecisionSchema = z.discriminatedUnion('decision', [
  z
    .object({
      decision: z.literal('accepted'),
      /** The id the question got in the golden set. */
      goldenId: z.string().min(1),
      /** The question text as appended (after an edit): how a resumed review finds it in the golden set. */
      question: z.string().min(1),
      edited: z.boolean(),
      /** true: appended by --accept-kept, nobody read it. */
      unreviewed: z.boolean(),
      ...decided,
    })
    .strict(),
  z
    .object({
      decision: z.literal('rejected'),
      reason: z.string().optional(),
      ...decided,
    })
    .strict(),
])

export type ReviewDecision = z.output<typeof ReviewDecisionSchema>

/** An edit the reviewer made and has not accepted yet (a quit, a skip): the draft is shown again with it. */
const PendingEditSchema = z
  .object({ question: z.string().min(1), goldAnswer: z.string().optional(), draftHash: z.string().min(1) })
  .strict()
export type PendingEdit = z.output<typeof PendingEditSchema>

/** Decisions per draft id (verified.review.json), written after each, so a stopped review resumes at the next undecided. */
export const ReviewStateSchema = z
  .object({
    /** The verified file reviewed, as given. */
    drafts: z.string(),
    /** The golden set accepted drafts go to. */
    goldenSet: z.string(),
    decisions: z.record(z.string(), ReviewDecisionSchema),
    /** Edits not accepted yet, per draft id. */
    edits: z.record(z.string(), PendingEditSchema).default({}),
  })
  .strict()

export type ReviewState = z.output<typeof ReviewStateSchema>

/** evals/verified.jsonl -> evals/verified.review.json */
export function reviewStatePath(draftsFile: string): string {
  return `${draftsFile.replace(/\.[^./\\]+$/, '')}.review.json`
}

/** The state of an earlier review of these drafts, or a fresh one. A damaged file stops with what is wrong, never starts over in silence. */
export function readReviewState(file: string, drafts: string, goldenSet: string): ReviewState {
  if (!existsSync(file)) return { drafts, goldenSet, decisions: {}, edits: {} }
  const hint = "it is golden review's state: fix it, or delete it to review every draft again"
  return { ...readJsonFile(file, ReviewStateSchema, hint), drafts, goldenSet }
}

/** Writes the state atomically (temp file and rename): a review stopped mid-write keeps the previous state whole. */
export function writeReviewState(file: string, state: ReviewState): void {
  writeFileAtomic(file, `${JSON.stringify(state, null, 2)}\n`)
}

/**
 * Takes the review of these drafts for this process (<state>.lock, made exclusively): two sessions writing one state
 * would each drop the other's decisions and append a draft twice. A lock whose process is gone is taken over.
 * Returns its release.
 */
export function lockReview(stateFile: string, reviewer: string): () => void {
  const lock = `${stateFile}.lock`
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), reviewer, since: new Date().toISOString() })
  for (;;) {
    try {
      writeFileSync(lock, mine, { flag: 'wx' })
      return () => rmSync(lock, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const held = readFileSync(lock, 'utf8')
    // Empty: its session is writing it now.
    const { pid, host, reviewer: by, since } = JSON.parse(held || '{"pid":0}') as Record<string, string | number>
    if (host !== hostname() || processIsAlive(Number(pid)))
      throw new InputError(
        `${by ?? 'someone'} is reviewing these drafts (pid ${pid} on ${host ?? 'this machine'}, since ${since ?? 'now'}; ` +
          `${lock}): wait until that review ends, or delete the lock file if it was stopped`,
      )
    if (readFileSync(lock, 'utf8') === held) rmSync(lock, { force: true })
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
