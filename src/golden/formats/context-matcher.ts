import type { CorpusDocument } from '../../load/corpus.ts'

/** The document a context comes from, or why none could be named. */
export type ContextMatch = { docId: string } | { docId: null; reason: string }

/** Text compared for containment: Markdown markers (# * _ ` > |) dropped, whitespace collapsed, lower case. */
export function comparableText(text: string): string {
  return text
    .replace(/[#*_`>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
}

/**
 * The one corpus document whose text contains a context passage (as comparableText), retried without a first line
 * naming a place ("Title > Section"). Found in several documents or none: unmatched, with the reason.
 */
export function createContextMatcher(docs: readonly CorpusDocument[]): (context: string) => ContextMatch {
  const texts = docs.map((doc) => ({ id: doc.id, text: comparableText(`${doc.title}\n${doc.body}`) }))
  const find = (passage: string) => texts.filter((doc) => doc.text.includes(passage)).map((doc) => doc.id)
  return (context) => {
    const whole = comparableText(context)
    if (whole === '') return { docId: null, reason: 'is empty' }
    let found = find(whole)
    const lines = context.trim().split(/\r?\n/)
    if (found.length === 0 && lines.length > 1) {
      const rest = comparableText(lines.slice(1).join('\n'))
      if (rest !== '') found = find(rest)
    }
    if (found.length === 1) return { docId: found[0]! }
    if (found.length === 0) return { docId: null, reason: 'matches no corpus document' }
    return {
      docId: null,
      reason:
        `is found in ${found.length} documents ` +
        `(${found.slice(0, 5).join(', ')}${found.length > 5 ? ', ...' : ''}): too short to tell which`,
    }
  }
}
