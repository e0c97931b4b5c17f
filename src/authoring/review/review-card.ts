import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { MarkedDocument, SupportMarks } from './supporting-sentences.ts'
import type { RetrievedChunk } from '../../system/rag-system.ts'

/** A passage the configured system retrieved for the draft. */
export type RetrievedPassage = Pick<RetrievedChunk, 'chunkId' | 'docId' | 'text'>

export interface CardInput {
  question: GoldenQuestion
  /** `verified.jsonl:12` */
  where: string
  /** 1-based position among the drafts still to review, and their count. */
  position: number
  of: number
  marks: SupportMarks
  /** golden verify's notes on the kept draft (golden:check warnings). */
  notes: readonly string[]
  retrieval: { system: string; passages: readonly RetrievedPassage[] } | { system: string; error: string }
}

/** Sentences shown around a marked one; the rest of a long document is elided with a count. */
const CONTEXT_SENTENCES = 1
/** A document with no marked sentence shows its first few. */
const LEAD_SENTENCES = 3
const PASSAGE_PREVIEW = 160

// Markdown emphasis markers are left out: a sentence split inside **...** would show a stray pair.
const oneLine = (text: string) =>
  text
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
const preview = (text: string) => {
  const flat = oneLine(text)
  return flat.length <= PASSAGE_PREVIEW ? flat : `${flat.slice(0, PASSAGE_PREVIEW - 1)}…`
}

/** A gold document's sentences: the supporting ones marked `>>` with their claims, their neighbours, the rest elided. */
function documentLines(doc: MarkedDocument): string[] {
  const marked = (s: MarkedDocument['sentences'][number]) => s.supports.length > 0 || s.statesFactsOf.length > 0
  const anyMarked = doc.sentences.some(marked)
  const shown = doc.sentences.map((_, i) =>
    anyMarked ? doc.sentences.some((s, j) => marked(s) && Math.abs(i - j) <= CONTEXT_SENTENCES) : i < LEAD_SENTENCES,
  )
  const lines = [`  ${doc.docId}  ${doc.title}${doc.updated === null ? '' : ` (updated ${doc.updated})`}`]
  if (!anyMarked) lines.push('     (no sentence of it supports a claim of the gold answer)')
  let hidden = 0
  const flushHidden = () => {
    if (hidden > 0) lines.push(`     [… ${hidden} sentence${hidden === 1 ? '' : 's'}]`)
    hidden = 0
  }
  doc.sentences.forEach((s, i) => {
    if (!shown[i]) {
      hidden++
      return
    }
    flushHidden()
    if (s.supports.length > 0) lines.push(`  >> [${s.supports.join(',')}] ${oneLine(s.text)}`)
    else if (s.statesFactsOf.length > 0) lines.push(`  >~ [${s.statesFactsOf.join(',')}] ${oneLine(s.text)}`)
    else lines.push(`     ${oneLine(s.text)}`)
  })
  flushHidden()
  return lines
}

/** What a reviewer reads of one draft, as plain text (no colours, so it reads the same in a log). */
export function renderCard(input: CardInput): string {
  const q = input.question
  const lines: string[] = [
    `── draft ${input.position} of ${input.of}: ${q.id} (${input.where}) ${'─'.repeat(8)}`,
    `type:        ${q.type}${q.governingDocId === undefined ? '' : ` (governing: ${q.governingDocId})`}`,
  ]
  if (q.userContext !== undefined) lines.push(`userContext: ${JSON.stringify(q.userContext)}`)
  if (q.history !== undefined && q.history.length > 0) {
    lines.push('history:')
    q.history.forEach((turn, i) => lines.push(`  ${i + 1}. ${turn.role}: ${oneLine(turn.content)}`))
  }
  lines.push(`question:    ${q.question}`)
  if (q.type === 'none') lines.push('gold answer: (none: the corpus does not answer it; the system should refuse)')
  else {
    lines.push(`gold answer: ${q.goldAnswer ?? '(missing)'}`)
    input.marks.claims.forEach((c, i) => lines.push(`  [${i + 1}] ${c.verdict}: ${c.claim} (${c.reason})`))
  }
  if (q.notes !== undefined) lines.push(`notes:       ${oneLine(q.notes)}`)
  const provenance = q.provenance
  if (provenance !== undefined)
    lines.push(
      `drafted:     ${[
        provenance.origin,
        provenance.model,
        provenance.promptHash && `prompt ${provenance.promptHash}`,
        provenance.draftedAt,
        provenance.source && `${provenance.source}:${provenance.line ?? 1}`,
        provenance.askedAt && `asked ${provenance.askedAt}`,
      ]
        .filter(Boolean)
        .join(', ')}`,
    )
  for (const note of input.notes) lines.push(`verify note: ${note}`)
  if (input.marks.documents.length > 0) {
    lines.push('', 'gold documents (>> supports the numbered claim on its own; >~ states a fact of it):')
    for (const doc of input.marks.documents) lines.push(...documentLines(doc))
  }
  lines.push('')
  if ('error' in input.retrieval) lines.push(`${input.retrieval.system} retrieves: (failed: ${input.retrieval.error})`)
  else {
    const { passages } = input.retrieval
    const gold = new Set(q.answerDocIds)
    const rankOf = (docId: string) => passages.findIndex((p) => p.docId === docId)
    lines.push(`${input.retrieval.system} retrieves (top ${passages.length}):`)
    passages.forEach((p, i) =>
      lines.push(`  ${String(i + 1).padStart(2)}. ${p.chunkId}${gold.has(p.docId) ? ' (gold)' : ''}  ${preview(p.text)}`),
    )
    if (passages.length === 0) lines.push('  (nothing)')
    if (q.answerDocIds.length > 0)
      lines.push(
        `  gold documents: ${q.answerDocIds
          .map((id) => (rankOf(id) < 0 ? `${id} not retrieved` : `${id} at rank ${rankOf(id) + 1}`))
          .join('; ')}`,
      )
  }
  return lines.join('\n')
}
