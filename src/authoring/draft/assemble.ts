import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion, Provenance } from '../../contract/golden-set-schema.ts'
import type { ContradictionDraft, NoneDraft, SingleDraft } from './prompts.ts'
import type { DraftTask } from './plan.ts'
import { supersededIds } from '../../golden/lint/contradiction-without-governing.ts'

/** The whitespace-folded, lower-cased text a quote is looked up in (markdown emphasis aside). */
export function squash(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim().toLowerCase()
}

const docOf = (passageId: string) => passageId.replace(/#\d+$/, '')

/**
 * What is wrong with a draft's evidence, or null: quotes verbatim in named passages of the material, and a quote
 * from every document for multi and confirmed contradictions. The structured call sends it back once for repair.
 */
export function evidenceProblem(task: DraftTask, evidence: SingleDraft['evidence']): string | null {
  const passages = new Map(task.passages.map((p) => [p.chunkId, squash(p.text)]))
  for (const { passageId, quote } of evidence) {
    const text = passages.get(passageId)
    if (text === undefined) return `evidence names passage ${JSON.stringify(passageId)}, which is not in the material`
    if (!text.includes(squash(quote))) return `the quote ${JSON.stringify(quote)} is not verbatim in passage ${passageId}`
  }
  if (task.type === 'multi' || task.type === 'contradiction') {
    const quoted = new Set(evidence.map((e) => docOf(e.passageId)))
    const missing = task.docIds.filter((id) => !quoted.has(id))
    if (missing.length > 0) return `no quote from ${missing.join(', ')}: quote every document the answer needs`
  }
  return null
}

const quoteNote = (evidence: SingleDraft['evidence']) => evidence.map((e) => `${e.passageId} "${e.quote}"`).join('; ')

export type Governing = { docId: string; rule: string; review: boolean } | { docId: null; rule: string; review: true }

/** A contradiction's governing document: the one that supersedes, else the newer `updated`, else the drafter's (flagged). */
export function governingOf(docs: readonly CorpusDocument[], draft: ContradictionDraft): Governing {
  const [a, b] = docs as [CorpusDocument, CorpusDocument]
  if (supersededIds(a).includes(b.id)) return { docId: a.id, rule: `${a.id} supersedes ${b.id}`, review: false }
  if (supersededIds(b).includes(a.id)) return { docId: b.id, rule: `${b.id} supersedes ${a.id}`, review: false }
  if (a.updated !== undefined && b.updated !== undefined && a.updated !== b.updated) {
    const [newer, older] = a.updated > b.updated ? [a, b] : [b, a]
    return {
      docId: newer.id,
      rule: `${newer.id} is newer (updated ${newer.updated}; ${older.id} ${older.updated})`,
      review: false,
    }
  }
  const named = docs.find((d) => d.id === draft.governingDocId)
  if (named) return { docId: named.id, rule: `chosen by the drafter: ${draft.reason}`, review: true }
  return { docId: null, rule: `no supersedes, no two updated dates, and the drafter named none (${draft.reason})`, review: true }
}

export type Assembled = { ok: true; question: GoldenQuestion } | { ok: false; reason: string }

/** The golden-set question a draft makes (its id is given later, in output order). */
export function assemble(
  task: DraftTask,
  output: SingleDraft | ContradictionDraft | NoneDraft,
  docs: ReadonlyMap<string, CorpusDocument>,
  provenance: Provenance,
): Assembled {
  const common = {
    id: task.key,
    question: output.question,
    ...(task.persona ? { userContext: task.persona } : {}),
    provenance,
  }
  if (task.type === 'none') {
    const none = output as NoneDraft
    return {
      ok: true,
      question: {
        ...common,
        type: 'none',
        answerDocIds: [],
        notes: `Drafted as unanswerable, on the subject of ${task.topicDocId}: ${none.missing}`,
      },
    }
  }
  const draft = output as SingleDraft | ContradictionDraft
  if (task.type !== 'contradiction')
    return {
      ok: true,
      question: {
        ...common,
        type: task.type,
        answerDocIds: task.docIds,
        goldAnswer: draft.goldAnswer,
        notes: `Drafted from ${quoteNote(draft.evidence)}.`,
      },
    }
  const contradiction = draft as ContradictionDraft
  if (!contradiction.contradicts) return { ok: false, reason: `the drafter found no contradiction: ${contradiction.reason}` }
  const governing = governingOf(
    task.docIds.map((id) => docs.get(id)!),
    contradiction,
  )
  if (governing.docId === null) return { ok: false, reason: `no governing document: ${governing.rule}` }
  return {
    ok: true,
    question: {
      ...common,
      type: 'contradiction',
      answerDocIds: task.docIds,
      goldAnswer: contradiction.goldAnswer,
      governingDocId: governing.docId,
      notes:
        `Drafted from ${quoteNote(contradiction.evidence)}. Governing: ${governing.docId}, ${governing.rule}` +
        (governing.review ? '. REVIEW: no stated rule decides which document governs.' : '.'),
    },
  }
}
