import type { Chunk } from '../../builtin/chunker.ts'
import type { Retriever } from '../../builtin/retriever.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { splitSentences } from '../../text/sentences.ts'
import { contentTerms, tokenizeWords } from '../../text/text-analyzer.ts'
import { supersededIds } from '../../golden/lint/contradiction-without-governing.ts'

/**
 * Lexical candidates for multi and contradiction drafts; the drafter confirms them
 * (docs/golden-set.md, 'How the drafts are planned').
 */

const isNumber = (term: string) => /^\p{N}/u.test(term)

/** Each document's content terms (a set) and their document frequencies over the corpus. */
export interface TermStats {
  terms: Map<string, Set<string>>
  df: Map<string, number>
  /** The surface word each term was most often written as in a document (the query the retriever reads). */
  surface: Map<string, Map<string, string>>
}

export function termStats(docs: readonly CorpusDocument[]): TermStats {
  const terms = new Map<string, Set<string>>()
  const df = new Map<string, number>()
  const surface = new Map<string, Map<string, string>>()
  for (const doc of docs) {
    const words = tokenizeWords(doc.body).filter((w) => !/^\p{N}/u.test(w))
    const stems = contentTerms(words.join(' '))
    const set = new Set(stems)
    terms.set(doc.id, set)
    for (const term of set) df.set(term, (df.get(term) ?? 0) + 1)
    const spelled = new Map<string, string>()
    for (const word of words) {
      const [term] = contentTerms(word)
      if (term !== undefined && !spelled.has(term)) spelled.set(term, word)
    }
    surface.set(doc.id, spelled)
  }
  return { terms, df, surface }
}

/** A term shared by few documents: at most a tenth of the corpus (and at least two, or it is shared by none). */
function isRare(term: string, stats: TermStats, docCount: number): boolean {
  const df = stats.df.get(term) ?? 0
  return df >= 2 && df <= Math.max(2, Math.ceil(docCount / 10)) && !isNumber(term)
}

export interface DocumentGroup {
  docIds: string[]
  /** The rare terms every document of the group holds. */
  shared: string[]
  /** The BM25 score that paired them: higher means more in common. */
  score: number
}

/**
 * Document pairs sharing rare terms: each document's rarest terms (at most 12) as a BM25 query; a ranked document
 * holding at least two of them pairs with it. Best score first, each pair once.
 */
export function relatedPairs(docs: readonly CorpusDocument[], stats: TermStats, retriever: Retriever): DocumentGroup[] {
  const pairs = new Map<string, DocumentGroup>()
  for (const doc of docs) {
    const own = stats.terms.get(doc.id)!
    const rare = [...own]
      .filter((t) => isRare(t, stats, docs.length))
      .sort((a, b) => stats.df.get(a)! - stats.df.get(b)! || (a < b ? -1 : 1))
      .slice(0, 12)
    if (rare.length < 2) continue
    const query = rare.map((t) => stats.surface.get(doc.id)!.get(t) ?? t).join(' ')
    const best = new Map<string, number>()
    for (const { chunk, score } of retriever.search(query, 40))
      if (chunk.docId !== doc.id && !best.has(chunk.docId)) best.set(chunk.docId, score)
    for (const [other, score] of best) {
      const shared = rare.filter((t) => stats.terms.get(other)?.has(t))
      if (shared.length < 2) continue
      const docIds = [doc.id, other].sort()
      const key = docIds.join('\u0000')
      const known = pairs.get(key)
      if (!known || known.score < score) pairs.set(key, { docIds, shared: shared.sort(), score })
    }
  }
  return [...pairs.values()].sort((a, b) => b.score - a.score || (a.docIds.join() < b.docIds.join() ? -1 : 1))
}

export interface ContradictionCandidate {
  docIds: [string, string]
  /** The two sentences, one of each document, that say nearly the same with other numbers. */
  sentences: [string, string]
  /** Jaccard overlap of their content terms besides numbers; 2 when one document supersedes the other. */
  score: number
}

interface NumberedSentence {
  docId: string
  text: string
  terms: Set<string>
  numbers: Set<string>
}

function numberedSentences(doc: CorpusDocument): NumberedSentence[] {
  return splitSentences(doc.body).flatMap((text) => {
    const numbers = new Set((text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, '')))
    const terms = new Set(contentTerms(text).filter((t) => !isNumber(t)))
    return numbers.size > 0 && terms.size >= 3 ? [{ docId: doc.id, text, terms, numbers }] : []
  })
}

/**
 * Document pairs that may state different values for one fact (thresholds in docs/golden-set.md): the best sentence
 * pair per document pair, pairs where one document supersedes the other first.
 */
export function contradictionCandidates(docs: readonly CorpusDocument[]): ContradictionCandidate[] {
  const sentences = docs.flatMap(numberedSentences)
  const byTerm = new Map<string, number[]>()
  // Appended in place: a copy per sentence made this quadratic in a common term's sentences.
  sentences.forEach((s, i) => s.terms.forEach((t) => (byTerm.get(t) ?? byTerm.set(t, []).get(t)!).push(i)))
  const byId = new Map(docs.map((d) => [d.id, d]))
  const best = new Map<string, ContradictionCandidate>()
  sentences.forEach((a, i) => {
    const sharedCount = new Map<number, number>()
    for (const t of a.terms) for (const j of byTerm.get(t) ?? []) if (j > i) sharedCount.set(j, (sharedCount.get(j) ?? 0) + 1)
    for (const [j, shared] of sharedCount) {
      const b = sentences[j]!
      if (b.docId === a.docId || shared < 3) continue
      const jaccard = shared / (a.terms.size + b.terms.size - shared)
      const sameNumbers = a.numbers.size === b.numbers.size && [...a.numbers].every((n) => b.numbers.has(n))
      if (jaccard < 0.5 || sameNumbers) continue
      const [first, second] = a.docId < b.docId ? [a, b] : [b, a]
      const docA = byId.get(first.docId)!
      const docB = byId.get(second.docId)!
      const score = supersededIds(docA).includes(docB.id) || supersededIds(docB).includes(docA.id) ? 2 : jaccard
      const key = `${first.docId}\u0000${second.docId}`
      const known = best.get(key)
      if (!known || known.score < score)
        best.set(key, { docIds: [first.docId, second.docId], sentences: [first.text, second.text], score })
    }
  })
  return [...best.values()].sort((a, b) => b.score - a.score || (a.docIds.join() < b.docIds.join() ? -1 : 1))
}

/** The chunk of a document whose text holds the most of `terms` (the first such chunk on a tie). */
export function bestChunkFor(chunks: readonly Chunk[], terms: readonly string[]): Chunk {
  let best = chunks[0]!
  let bestCount = -1
  for (const chunk of chunks) {
    const own = new Set(contentTerms(chunk.text))
    const count = terms.filter((t) => own.has(t)).length
    if (count > bestCount) [best, bestCount] = [chunk, count]
  }
  return best
}

/** The chunk of a document that holds a sentence (its first chunk holding the sentence's opening words otherwise). */
export function chunkHolding(chunks: readonly Chunk[], sentence: string): Chunk {
  const squash = (text: string) => text.replace(/\s+/g, ' ')
  return chunks.find((c) => squash(c.text).includes(squash(sentence))) ?? bestChunkFor(chunks, contentTerms(sentence))
}
