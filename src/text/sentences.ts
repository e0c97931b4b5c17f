import { sentenceSegments } from './sentence-segments.ts'

/** Abbreviations after which a period does not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|approx|incl|no|dr|mr|ms|mrs|st|fig|cf|min|max|avg|est)\.$/i
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/

/**
 * Splits text into sentences: each line on its own (list items and table rows are one sentence each,
 * without their list marker), lines split as Intl.Segmenter splits them (sentence-segments.ts; so decimals such as "3.5" and versions
 * such as "2.5.1" stay whole) and re-joined where a "sentence" ended on an abbreviation ("e.g.").
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  for (const block of text.split(/\n+/)) {
    const line = block.replace(LIST_MARKER, '').trim()
    if (!line) continue
    const start = sentences.length
    for (const segment of sentenceSegments(line)) {
      const piece = segment.trim()
      if (!piece) continue
      const previous = sentences.length > start ? sentences.at(-1) : undefined
      if (previous !== undefined && ABBREVIATIONS.test(previous)) sentences[sentences.length - 1] = `${previous} ${piece}`
      else sentences.push(piece)
    }
  }
  return sentences
}
