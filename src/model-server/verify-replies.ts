import { extractNumbers } from '../text/key-facts.ts'
import { contentTerms } from '../text/text-analyzer.ts'

// Scripted lexical verdicts for `golden verify`'s prompts: deterministic, and saying nothing about Claude's.

interface Chunk {
  chunkId: string
  text: string
}

const QUESTION_WORDS = new Set(['when', 'why', 'where', 'how', 'who', 'whom', 'whose', 'what', 'which'])

/** A chunk holding every content term of the question (two or more) answers it. */
export function scriptedAnswerability(question: string, chunks: readonly Chunk[]) {
  const terms = [...new Set(contentTerms(question.replace(/(\w)['\u2019]s\b/g, '$1')))].filter((t) => !QUESTION_WORDS.has(t))
  const answering =
    terms.length < 2
      ? undefined
      : chunks.find((chunk) => {
          const own = new Set(contentTerms(chunk.text.replace(/(\w)['\u2019]s\b/g, '$1')))
          return terms.every((t) => own.has(t))
        })
  return answering === undefined
    ? { verdict: 'does_not_answer', chunkId: null, reason: 'No chunk states the asked fact.' }
    : { verdict: 'answers', chunkId: answering.chunkId, reason: 'The chunk holds every term of the question.' }
}

/** Chunks disagree when their numbers differ; the governing one gives the latest "(updated YYYY-MM-DD)", else null. */
export function scriptedDisagreement(chunks: readonly Chunk[]) {
  const numbers = chunks.map((chunk) => new Set(extractNumbers(chunk.text)))
  const agree = numbers.every((set) => set.size === numbers[0]!.size && [...set].every((n) => numbers[0]!.has(n)))
  const updated = chunks
    .map((chunk) => ({
      chunkId: chunk.chunkId,
      date: /\(updated (\d{4}-\d{2}-\d{2})\)/.exec(chunk.text.split('\n')[0] ?? '')?.[1],
    }))
    .filter((c): c is { chunkId: string; date: string } => c.date !== undefined)
    .sort((a, b) => b.date.localeCompare(a.date))
  return {
    verdict: agree ? 'agree' : 'disagree',
    values: chunks.map((chunk, i) => ({ chunkId: chunk.chunkId, answer: [...numbers[i]!].join(', ') })),
    governingChunkId: agree ? null : (updated[0]?.chunkId ?? null),
    reason: agree ? 'Every chunk gives the same figures.' : 'The chunks give different figures.',
  }
}
