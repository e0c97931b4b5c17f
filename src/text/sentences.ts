import { sentenceSegments } from './sentence-segments.ts'

/** Abbreviations after which a period does not end a sentence. */
const ABBREVIATIONS = /(?:^|\s)(?:e\.g|i\.e|etc|vs|approx|incl|no|dr|mr|ms|mrs|st|fig|cf|min|max|avg|est)\.$/i
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/

/**
 * Splits text into sentences: each line (list markers dropped) cut as Intl.Segmenter cuts it, so "3.5" stays whole,
 * then re-joined after an abbreviation ("e.g.").
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
