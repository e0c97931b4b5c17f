import type { Leak, MayRead } from '../../contract/access-schema.ts'
import type { RetrievedChunk, SystemAnswer } from '../../system/rag-system.ts'
import { citedSentences } from '../generation/citations.ts'
import { numberStages } from '../loss-funnel.ts'
import { copiedDocuments, verbatimSpanOwners } from './verbatim-spans.ts'

/**
 * A question's permission leaks (pure): each document the asker may not read, in each place it appeared: a stage's
 * ranking (by its numbered name), the final ranking, the context, a citation (a `[n]` marker or a span's chunk ids),
 * and the answer (`copied`: the documents whose distinctive text it repeats, verbatimSpanOwners). A document is
 * listed once per place, in the order of the places, then of first appearance; none: [].
 */
export function permissionLeaks(
  output: Pick<SystemAnswer, 'ranked' | 'context' | 'stages' | 'answer' | 'citations'>,
  mayRead: (docId: string) => boolean,
  copied: readonly string[] = [],
): Leak[] {
  const forbidden = (chunks: readonly { docId: string }[]) => [
    ...new Set(chunks.map((chunk) => chunk.docId).filter((docId) => !mayRead(docId))),
  ]
  const stages = output.stages ?? []
  const names = numberStages(stages.map((stage) => stage.name))
  const byChunk = new Map<string, RetrievedChunk>(output.context.map((chunk) => [chunk.chunkId, chunk]))
  const cited =
    output.answer === undefined
      ? []
      : citedSentences(
          output.answer,
          output.context.map((chunk) => chunk.chunkId),
          output.citations,
        ).flatMap((sentence) => sentence.cited.map((id) => byChunk.get(id)!))
  return [
    ...stages.flatMap((stage, i) => forbidden(stage.ranked).map((docId): Leak => ({ docId, where: 'stage', stage: names[i]! }))),
    ...forbidden(output.ranked).map((docId): Leak => ({ docId, where: 'ranked' })),
    ...forbidden(output.context).map((docId): Leak => ({ docId, where: 'context' })),
    ...forbidden(cited).map((docId): Leak => ({ docId, where: 'citation' })),
    ...copied.filter((docId) => !mayRead(docId)).map((docId): Leak => ({ docId, where: 'answer' })),
  ]
}

/**
 * Each question's leaks (pure), undefined for a question without a userContext: its answer checked against the
 * corpus's documents and, for documents outside the corpus (a system's own), the chunks the system returned.
 */
export function runLeaks(
  runs: readonly { question: { userContext?: Record<string, unknown> | undefined }; output: SystemAnswer }[],
  mayRead: MayRead,
  corpus: readonly { id: string; body: string }[],
): (Leak[] | undefined)[] {
  const asked = runs.filter((run) => run.question.userContext !== undefined)
  const inCorpus = new Set(corpus.map((doc) => doc.id))
  const returned = asked.flatMap(({ output }) =>
    [...output.ranked, ...output.context, ...(output.stages ?? []).flatMap((stage) => stage.ranked)]
      .filter((chunk) => !inCorpus.has(chunk.docId))
      .map((chunk) => ({ docId: chunk.docId, text: chunk.text })),
  )
  const owners = verbatimSpanOwners(
    asked.flatMap(({ output }) => (output.answer === undefined ? [] : [output.answer])),
    [...corpus.map((doc) => ({ docId: doc.id, text: doc.body })), ...returned],
  )
  return runs.map(({ question: { userContext }, output }) => {
    if (userContext === undefined) return undefined
    const readable = (docId: string) => mayRead(userContext, docId, output.access)
    return permissionLeaks(output, readable, output.answer === undefined ? [] : copiedDocuments(output.answer, owners, readable))
  })
}
