import type { EvalConfig } from '../../contract/eval-config-schema.ts'
import type { GoldenQuestion, Provenance } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { checkRelevantGrade, validateGoldenSet } from '../../load/golden-set.ts'
import { withQuestionAppended } from '../../golden/append/append-question.ts'
import { readGoldenFile, writeGoldenFile } from '../../golden/append/golden-file-to-append.ts'
import { lintQuestions } from '../../golden/lint/best-chunks.ts'
import type { Finding } from '../../golden/lint/finding.ts'
import { nextQuestionId } from '../../golden/question-ids.ts'
import { rewriteQuestionText } from './rewrite-question.ts'

/** Who accepted a draft: a person who read it (golden review on a terminal), or a script (--accept-kept). */
export type Acceptance = { reviewedBy: string; reviewedAt: string } | { unreviewed: true }

/**
 * The golden question an accepted draft becomes, with its provenance: drafted (model, prompt hash, time) and who
 * reviewed it when, `unreviewed: true` when a script accepted it, or imported when the candidate had none.
 */
export function acceptedQuestion(draft: GoldenQuestion, id: string, acceptance: Acceptance): GoldenQuestion {
  const { reviewedBy: _by, reviewedAt: _at, unreviewed: _un, ...origin } = draft.provenance ?? { origin: 'imported' as const }
  const provenance: Provenance = 'unreviewed' in acceptance ? { ...origin, unreviewed: true } : { ...origin, ...acceptance }
  return { ...draft, id, provenance }
}

export interface GoldenTarget {
  file: string
  docs: readonly CorpusDocument[]
  /** The evaluation's knobs: golden:check's none-too-easy ranks with them, and relevantGrade is checked. */
  config: EvalConfig
}

export interface AppendItem {
  /** The draft's id (d-003): how refusals name it. */
  key: string
  /** The question it becomes with a golden-set id. */
  build: (id: string) => GoldenQuestion
}

export interface AppendPlan {
  file: string
  /** The golden set's text as read (null: no file yet); the commit refuses if it changed since. */
  before: string | null
  /** The text to write; null when nothing is appended. */
  text: string | null
  appended: { key: string; question: GoldenQuestion }[]
  /** Drafts that would break golden:check, each with the errors it would raise. */
  refused: { key: string; errors: string[] }[]
}

const findingKey = (f: Finding) => `${f.rule}\u0000${f.questionId ?? ''}\u0000${f.message}`

/** golden:check's errors on a set of questions (the loader's checks, relevantGrade, then every lint rule). */
async function checkErrors(questions: readonly GoldenQuestion[], target: GoldenTarget): Promise<Finding[]> {
  return (await lintQuestions(questions, target.docs, target.config)).filter((f) => f.severity === 'error')
}

/**
 * Plans an append: the next free ids, and the whole set must still pass golden:check. A draft adding an error is
 * refused by name and the others are renumbered without it (no gap). Writes nothing: commitAppend writes the plan.
 */
export async function planAppend(target: GoldenTarget, items: readonly AppendItem[]): Promise<AppendPlan> {
  const golden = readGoldenFile(target.file, target.docs, 'golden review')
  const existingIds = golden.questions.map((q) => q.id)
  const earlier = new Set((await checkErrors(golden.questions, target)).map(findingKey))
  let pending = [...items]
  const refused: AppendPlan['refused'] = []
  for (;;) {
    const ids: string[] = []
    const built = pending.map((item) => {
      const id = nextQuestionId([...existingIds, ...ids])
      ids.push(id)
      return { key: item.key, question: item.build(id) }
    })
    if (built.length === 0) return { file: target.file, before: golden.text, text: null, appended: [], refused }
    const all = [...golden.questions, ...built.map((b) => b.question)]
    const problems = new Map<string, string[]>()
    try {
      validateGoldenSet({ questions: all }, target.file, target.docs)
      checkRelevantGrade(all, target.config.relevantGrade, target.file)
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      // The loader names the question by id: the drafts it names are refused.
      for (const b of built)
        if (
          error.message
            .split('\n')
            .some((line) => line.includes(`question ${b.question.id},`) || line.includes(`question ${b.question.id}:`))
        )
          problems.set(b.key, [error.message])
      if (problems.size === 0) throw error
    }
    if (problems.size === 0) {
      for (const f of await checkErrors(all, target)) {
        if (earlier.has(findingKey(f))) continue
        const draft = built.find((b) => b.question.id === f.questionId)
        // An error on a question already there, raised by a new one (none today: each rule names the later question).
        const key = draft?.key ?? built.at(-1)!.key
        problems.set(key, [...(problems.get(key) ?? []), `${f.rule}: ${f.message} (fix: ${f.fix})`])
      }
    }
    if (problems.size === 0) {
      let text = golden.text
      for (const b of built) text = withQuestionAppended(text, target.file, b.question)
      return { file: target.file, before: golden.text, text, appended: built, refused }
    }
    for (const item of pending) if (problems.has(item.key)) refused.push({ key: item.key, errors: problems.get(item.key)! })
    pending = pending.filter((item) => !problems.has(item.key))
  }
}

/**
 * Plans replacing question `id` (a person's review of an unreviewed one) or removing it (null); refused, naming the
 * errors, when golden:check fails; undefined when the golden set holds no question `id` any more.
 */
export async function planRewrite(
  target: GoldenTarget,
  id: string,
  question: GoldenQuestion | null,
): Promise<AppendPlan | undefined> {
  const golden = readGoldenFile(target.file, target.docs, 'golden review')
  const text = golden.text === null ? null : rewriteQuestionText(golden.text, id, question)
  if (text === null) return undefined
  const questions = golden.questions.flatMap((q) => (q.id !== id ? [q] : question === null ? [] : [question]))
  const plan: AppendPlan = { file: target.file, before: golden.text, text, appended: [], refused: [] }
  if (question === null) return plan
  const earlier = new Set((await checkErrors(golden.questions, target)).map(findingKey))
  const errors = (await checkErrors(questions, target))
    .filter((f) => !earlier.has(findingKey(f)))
    .map((f) => `${f.rule}: ${f.message} (fix: ${f.fix})`)
  return errors.length === 0 ? plan : { ...plan, text: null, refused: [{ key: id, errors }] }
}

/**
 * Writes a plan atomically (temp file, rename), so a failure leaves the golden set byte for byte. A golden set
 * edited since the plan was made is not overwritten: the refusal names what changed.
 */
export function commitAppend(plan: AppendPlan): void {
  if (plan.text !== null) writeGoldenFile(plan.file, plan.before, plan.text, 'golden review')
}
