import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { GoldenQuestionSchema } from '../../contract/golden-set-schema.ts'
import { QUESTION_TYPES, type QuestionType } from '../../contract/question-types.ts'
import { callStructured } from '../../model/structured-call.ts'
import { block, materialBlock } from '../../model/delimit.ts'
import { type ModelClient } from '../../model/model-client.ts'
import { ModelCallError, RunStoppedError } from '../../model/model-errors.ts'
import { BudgetExceededError } from '../../model/spending-cap.ts'
import { renderUser, templateHash } from '../../model/prompt-template.ts'
import { assemble, evidenceProblem } from './assemble.ts'
import type { DraftPlan, DraftTask } from './plan.ts'
import { asProbe } from './probes.ts'
import { DRAFT_PROMPTS, type ContradictionDraft, type NoneDraft, type SingleDraft } from './prompts.ts'

export interface DraftRunOptions {
  /** The drafter model (drafterModel, else generatorModel). */
  model: string
  maxTokens: number
  /** When the drafts are made (their provenance). */
  now: () => Date
}

/** How evenly the drafts use the corpus. */
export interface DocumentCoverage {
  documents: number
  /** Documents that are an answer document of at least one draft. */
  used: number
  /** The most drafts one document answers, and which document. */
  mostUses: { docId: string; drafts: number } | null
}

export interface DraftRun {
  /** The drafts in type order (single, multi, contradiction, none), then the cross-tenant probes; ids d-001... */
  questions: GoldenQuestion[]
  wanted: Record<QuestionType, number>
  /** Drafts not kept, with why (a contradiction the drafter did not confirm, no valid output after a repair). */
  dropped: { key: string; reason: string }[]
  documentCoverage: DocumentCoverage
}

function personaSlot(task: DraftTask): string {
  return task.persona === null
    ? 'No persona is given: ask as any user of this documentation would.'
    : `The question is asked by this user:\n${block('persona', JSON.stringify(task.persona))}`
}

function documentsSlot(task: DraftTask, docs: ReadonlyMap<string, CorpusDocument>): string {
  const described = task.docIds.map((id) => {
    const updated = docs.get(id)?.updated
    return updated === undefined ? id : `${id} (updated ${updated})`
  })
  return `The documents: ${described.join(', ')}.`
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth']

/** Another focus passage or fact for a passage drafted again: the same prompt twice drafts the same question twice. */
function focusLine(task: DraftTask): string {
  const n = (task.earlier ?? 0) + 1
  if (n === 1) return `Focus passage: ${task.focus}`
  return (
    `Focus passage: ${task.focus}\nThis is draft ${n} from this passage: ask about the ${ORDINALS[n - 1] ?? `${n}th`} fact ` +
    `it states in reading order, not about the facts before it (other drafts ask about those).`
  )
}

/** The user message of a task's prompt, and the values it was rendered from (part of the cache key). */
export function renderTask(task: DraftTask, docs: ReadonlyMap<string, CorpusDocument>): { user: string; inputs: unknown } {
  const template = DRAFT_PROMPTS[task.type]
  const material = materialBlock(task.passages.map((p) => ({ chunkId: p.chunkId, text: p.text })))
  const slots: Record<string, string> = { persona: personaSlot(task), material }
  if (task.type === 'single') slots.focus = focusLine(task)
  if (task.type === 'multi' || task.type === 'contradiction') slots.documents = documentsSlot(task, docs)
  return { user: renderUser(template, slots), inputs: slots }
}

type DraftOutput = SingleDraft | ContradictionDraft | NoneDraft

/** One task's model call: the draft, or why there is none after the repair attempt. */
async function draftOne(
  client: ModelClient,
  task: DraftTask,
  docs: ReadonlyMap<string, CorpusDocument>,
  options: DraftRunOptions,
): Promise<{ ok: true; output: DraftOutput } | { ok: false; error: string }> {
  const { user, inputs } = renderTask(task, docs)
  const template = DRAFT_PROMPTS[task.type]
  const outcome = await callStructured(client, {
    template,
    role: 'generator',
    subject: task.key,
    purpose: `draft:${task.type}`,
    model: options.model,
    maxTokens: options.maxTokens,
    user,
    inputs,
    check: (output) =>
      'evidence' in (output as object) && !(task.type === 'contradiction' && !(output as ContradictionDraft).contradicts)
        ? evidenceProblem(task, (output as SingleDraft).evidence)
        : null,
  })
  return outcome.ok ? { ok: true, output: outcome.output as DraftOutput } : outcome
}

/** The innermost cause of an error that was refused because of another (ModelCallError -> BudgetExceededError). */
export function rootCause(error: unknown): unknown {
  const refused =
    error instanceof ModelCallError && (error.cause instanceof BudgetExceededError || error.cause instanceof RunStoppedError)
  return refused ? error.cause : error
}

export function documentCoverageOf(questions: readonly GoldenQuestion[], docs: readonly CorpusDocument[]): DocumentCoverage {
  const uses = new Map<string, number>()
  for (const q of questions) for (const id of q.answerDocIds) uses.set(id, (uses.get(id) ?? 0) + 1)
  let mostUses: DocumentCoverage['mostUses'] = null
  for (const [docId, drafts] of [...uses].sort(([a], [b]) => (a < b ? -1 : 1)))
    if (mostUses === null || drafts > mostUses.drafts) mostUses = { docId, drafts }
  return { documents: docs.length, used: uses.size, mostUses }
}

/**
 * Drafts the plan's tasks and keeps, per type, the first drafts in plan order. A run-stopping error (spending cap,
 * a failed call) waits for paid calls to reach the cache before it is thrown, so a rerun resumes from the cache.
 */
export async function draftSet(
  client: ModelClient,
  plan: DraftPlan,
  docs: readonly CorpusDocument[],
  wanted: Record<QuestionType, number>,
  options: DraftRunOptions,
): Promise<DraftRun> {
  const byId = new Map(docs.map((d) => [d.id, d]))
  const settled = await Promise.allSettled(plan.tasks.map((task) => draftOne(client, task, byId, options)))
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown)
  if (failures.length > 0) {
    await client.stopAndDrain('a drafting call failed')
    // The error that stopped the run, not a call refused because of it (those name it as their cause).
    throw failures.map(rootCause).find((e) => !(e instanceof RunStoppedError)) ?? failures[0]
  }
  const draftedAt = options.now().toISOString()
  const dropped: DraftRun['dropped'] = []
  const kept: Record<QuestionType, GoldenQuestion[]> = { single: [], multi: [], contradiction: [], none: [] }
  const probes: GoldenQuestion[] = []
  plan.tasks.forEach((task, i) => {
    const result = (settled[i] as PromiseFulfilledResult<Awaited<ReturnType<typeof draftOne>>>).value
    if (!result.ok) return dropped.push({ key: task.key, reason: `no valid draft: ${result.error}` })
    const asker = task.probeAsker
    if (asker === undefined && kept[task.type].length >= wanted[task.type]) return
    const template = DRAFT_PROMPTS[task.type]
    const made = assemble(task, result.output, byId, {
      origin: 'drafted',
      model: options.model,
      promptHash: templateHash(template).slice(0, 16),
      draftedAt,
    })
    if (!made.ok) return dropped.push({ key: task.key, reason: made.reason })
    const valid = GoldenQuestionSchema.safeParse(asker ? asProbe(made.question, asker) : made.question)
    if (!valid.success)
      return dropped.push({ key: task.key, reason: `not a valid golden question: ${valid.error.issues[0]?.message}` })
    ;(asker ? probes : kept[task.type]).push(valid.data)
  })
  const questions = [...QUESTION_TYPES.flatMap((type) => kept[type]), ...probes].map((q, i) => ({
    ...q,
    id: `d-${String(i + 1).padStart(3, '0')}`,
  }))
  return { questions, wanted, dropped, documentCoverage: documentCoverageOf(questions, docs) }
}
