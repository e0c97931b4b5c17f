import { CITATION_MARKER, stripCitationMarkers } from '../../contract/citation-markers.ts'
import type { Citation } from '../../system/rag-system.ts'
import { splitSentences } from '../../text/sentences.ts'
import { ratio, type MetricResult } from './metric-result.ts'

/** A sentence of an answer and what it cites: context chunk ids, and fabricated names (`[7]` past the context, an id outside it). */
export interface CitedSentence {
  sentence: string
  cited: string[]
  fabricated: string[]
}

/**
 * The answer's sentences (splitSentences, markers stripped) with their citations: the chunks of the `citations`
 * spans overlapping the sentence when the system returns spans, else its `[n]` markers (the n-th context chunk,
 * 1-based). A marker belongs to the sentence it ends ("... [1]." or "... .[1]"); a repeated citation counts once.
 */
export function citedSentences(answer: string, contextIds: readonly string[], spans?: readonly Citation[]): CitedSentence[] {
  const markers: { at: number; numbers: number[] }[] = []
  let removed = 0
  const text =
    spans === undefined
      ? answer.replace(CITATION_MARKER, (match: string, list: string, offset: number) => {
          markers.push({ at: offset - removed, numbers: list.split(',').map(Number) })
          removed += match.length
          return ''
        })
      : answer
  let cursor = 0
  const located = splitSentences(text).map((sentence) => {
    const found = text.indexOf(sentence, cursor)
    const start = found === -1 ? cursor : found
    cursor = Math.max(cursor, start + sentence.length)
    return { sentence, start, end: start + sentence.length, refs: [] as string[], fabricated: [] as string[] }
  })
  if (located.length === 0) return []
  const inContext = new Set(contextIds)
  for (const { at, numbers } of markers) {
    const owner = located.findLast((s) => s.start < at) ?? located[0]!
    for (const n of numbers) {
      const id = contextIds[n - 1]
      if (n >= 1 && id !== undefined) owner.refs.push(id)
      else owner.fabricated.push(`[${n}]`)
    }
  }
  for (const span of spans ?? [])
    for (const overlapped of located.filter((s) => span.start < s.end && s.start < span.end))
      for (const id of span.chunkIds) (inContext.has(id) ? overlapped.refs : overlapped.fabricated).push(id)
  return located.map((s) => ({
    sentence: stripCitationMarkers(s.sentence),
    cited: [...new Set(s.refs)],
    fabricated: [...new Set(s.fabricated)],
  }))
}

/** A sentence's citations judged: whether it needs support, and which of its cited chunks support it (all or part of it). */
export interface SentenceCitations extends CitedSentence {
  needsSupport: boolean
  supportedBy: string[]
  /** Its cited chunks together support all of it. */
  supported: boolean
}

export type CitationStatus = 'scored' | 'nothing-cited' | 'nothing-to-support' | 'judge-error'

/** Citation precision (value) and recall of one answer, from its sentences' verdicts. */
export interface CitationResult extends MetricResult<CitationStatus> {
  /** Recall: the sentences needing support that their citations support, over those sentences. */
  supportedSentences: MetricResult<CitationStatus>
  sentences: SentenceCitations[]
  /** Every fabricated citation, by name, in the answer's order. */
  fabricated: string[]
}

/**
 * Citation precision and recall (docs/metrics.md) from judged sentences. Precision: supporting citations / citations,
 * over the sentences needing support, plus every fabricated citation (never support); null when nothing is cited
 * (nothing-cited). Recall: sentences needing support whose cited chunks support them / sentences needing support
 * (0 when nothing is cited); null when none needs support (a refusal, connective sentences only).
 */
export function citationScores(sentences: SentenceCitations[]): CitationResult {
  const needing = sentences.filter((s) => s.needsSupport)
  const fabricated = sentences.flatMap((s) => s.fabricated)
  const supporting = needing.reduce((sum, s) => sum + s.supportedBy.length, 0)
  const cited = needing.reduce((sum, s) => sum + s.cited.length, 0) + fabricated.length
  const supportedSentences = ratio<CitationStatus>(
    needing.filter((s) => s.supported).length,
    needing.length,
    'scored',
    'nothing-to-support',
  )
  return { ...ratio<CitationStatus>(supporting, cited, 'scored', 'nothing-cited'), supportedSentences, sentences, fabricated }
}
