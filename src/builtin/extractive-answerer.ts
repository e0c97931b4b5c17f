import { splitSentences } from '../text/sentences.ts'
import { contentTerms } from '../text/text-analyzer.ts'

/** The one sentence the offline answerer says when the context does not support an answer. */
export const REFUSAL_SENTENCE = 'I could not find the answer to this question in the provided material.'

export interface AnswererOptions {
  /** Refuse when the chosen sentences cover less than this share of the question (IDF-weighted). */
  refusalThreshold: number
  /** At most this many sentences in an answer. */
  maxSentences: number
}

export interface ExtractiveAnswer {
  answer: string
  refused: boolean
  /** IDF-weighted share of the question's content terms the chosen sentences (and their headings) cover. */
  support: number
}

interface Candidate {
  text: string
  order: number
  score: number
  /** Its chunk's 1-based place in the context: the `[n]` marker that cites it. */
  chunk: number
}

/** The question's distinct content terms: the position of each, its IDF weight, and a flag each for weightOf. */
interface AskedTerms {
  index: Map<string, number>
  weights: readonly number[]
  present: Uint8Array
}

/**
 * The summed weight of the asked terms among a sentence's and its heading's terms: flags, not a Set per sentence,
 * summed in the question's order so the float is the same whatever the sentence's word order.
 */
function weightOf(asking: AskedTerms, headingTerms: readonly string[], terms: readonly string[]): number {
  const { index, weights, present } = asking
  present.fill(0)
  for (const term of headingTerms) {
    const k = index.get(term)
    if (k !== undefined) present[k] = 1
  }
  for (const term of terms) {
    const k = index.get(term)
    if (k !== undefined) present[k] = 1
  }
  let sum = 0
  for (let k = 0; k < weights.length; k++) sum += present[k] === 1 ? weights[k]! : 0
  return sum
}

/**
 * The offline answerer, extractive: each context sentence scores the IDF-weighted share of the question's content
 * terms it (or its heading path) has; the best (at most maxSentences, each at least half the best) answer in context
 * order, each citing its chunk with a `[n]` marker, or REFUSAL_SENTENCE when they cover less than refusalThreshold (docs/refusal-threshold.md).
 */
export function extractiveAnswer(
  question: string,
  context: readonly { text: string }[],
  idf: (term: string) => number,
  options: AnswererOptions,
): ExtractiveAnswer {
  const asked = [...new Set(contentTerms(question))]
  const weights = asked.map((term) => idf(term))
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0)
  const asking: AskedTerms = { index: new Map(asked.map((term, k) => [term, k])), weights, present: new Uint8Array(asked.length) }
  const candidates: Candidate[] = []
  for (const [index, chunk] of context.entries()) {
    // The first line is the heading path (its terms count for every sentence), the rest the body.
    const newline = chunk.text.indexOf('\n')
    const headingTerms = contentTerms(newline === -1 ? chunk.text : chunk.text.slice(0, newline))
    for (const sentence of newline === -1 ? [] : splitSentences(chunk.text.slice(newline + 1))) {
      candidates.push({
        text: sentence,
        order: candidates.length,
        score: totalWeight === 0 ? 0 : weightOf(asking, headingTerms, contentTerms(sentence)) / totalWeight,
        chunk: index + 1,
      })
    }
  }
  const ranked = candidates.sort((a, b) => b.score - a.score || a.order - b.order)
  const best = ranked[0]?.score ?? 0
  const chosen = ranked.filter((c) => c.score > 0 && c.score >= best / 2).slice(0, options.maxSentences)
  const support = best
  if (chosen.length === 0 || support < options.refusalThreshold) return { answer: REFUSAL_SENTENCE, refused: true, support }
  // Each sentence once, citing the chunk it was lifted from before its closing punctuation ("... [2].").
  const cited = new Map<string, number>()
  for (const c of chosen.sort((a, b) => a.order - b.order)) if (!cited.has(c.text)) cited.set(c.text, c.chunk)
  const answer = [...cited].map(([text, n]) => text.replace(/(?=[.!?]*$)/, ` [${n}]`)).join(' ')
  return { answer, refused: false, support }
}
