import { splitSentences } from './sentences.ts'
import { contentTerms } from './text-analyzer.ts'

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
  terms: Set<string>
  order: number
  score: number
}

/**
 * The offline answerer: extractive, so everything it says is lifted verbatim from the context.
 * Each context sentence is scored by the IDF-weighted share of the question's content terms it (or its
 * chunk's heading path) contains; the best sentences (at most maxSentences, each scoring at least half
 * the best) form the answer in context order, which keeps it readable. When they cover less than
 * refusalThreshold of the question (rare question terms weigh most, so a question about something the
 * corpus never mentions is refused), it refuses with REFUSAL_SENTENCE instead.
 */
export function extractiveAnswer(question: string, context: readonly { text: string }[], idf: (term: string) => number, options: AnswererOptions): ExtractiveAnswer {
  const asked = [...new Set(contentTerms(question))]
  const totalWeight = asked.reduce((sum, term) => sum + idf(term), 0)
  const weightOf = (terms: Set<string>) => asked.reduce((sum, term) => sum + (terms.has(term) ? idf(term) : 0), 0)
  const candidates: Candidate[] = []
  for (const chunk of context) {
    const [heading = '', ...body] = chunk.text.split('\n')
    const headingTerms = contentTerms(heading)
    for (const sentence of splitSentences(body.join('\n'))) {
      const terms = new Set([...contentTerms(sentence), ...headingTerms])
      candidates.push({ text: sentence, terms, order: candidates.length, score: totalWeight === 0 ? 0 : weightOf(terms) / totalWeight })
    }
  }
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.order - b.order)
  const best = ranked[0]?.score ?? 0
  const chosen = ranked.filter((c) => c.score > 0 && c.score >= best / 2).slice(0, options.maxSentences)
  const support = best
  if (chosen.length === 0 || support < options.refusalThreshold) return { answer: REFUSAL_SENTENCE, refused: true, support }
  const answer = [...new Set(chosen.sort((a, b) => a.order - b.order).map((c) => c.text))].join(' ')
  return { answer, refused: false, support }
}
