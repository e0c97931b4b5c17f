import type { CorpusDocument } from '../load/corpus.ts'
import { countTextTokens, splitByTokens } from '../text/tokenizer.ts'
import { sentenceSegments } from '../text/sentence-segments.ts'

export interface Chunk {
  /** `<docId>#<n>`, n from 1 in document order. */
  chunkId: string
  docId: string
  /** Position in the whole corpus, for stable tie-breaking. */
  ordinal: number
  /** Heading path, e.g. "Trace Sampling > Tail sampling". */
  heading: string
  /** The heading path line, then the section text. */
  text: string
  tokens: number
}

export interface ChunkOptions {
  chunkTokens: number
  chunkOverlap: number
}

/** A sentence, list item or table row: the pieces a chunk is made of, never cut when avoidable. */
interface Unit {
  text: string
  /** Joins the unit to the one before it: " " inside a paragraph, "\n" between lines and paragraphs. */
  separator: string
  tokens: number
}

interface Section {
  heading: string
  units: Unit[]
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/
const LINE_ITEM = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)/

/** A paragraph's units: its lines when it is a list or a table, else its sentences; each with its token count. */
function unitsOfParagraph(lines: readonly string[]): Unit[] {
  const units: Unit[] = []
  const add = (text: string, separator: string) => {
    if (text.length > 0) units.push({ text, separator, tokens: countTextTokens(separator + text) })
  }
  if (lines.every((line) => LINE_ITEM.test(line)) || lines.some((line) => line.trimStart().startsWith('|'))) {
    for (const line of lines) add(line.trim(), '\n')
  } else {
    const segments = sentenceSegments(lines.map((line) => line.trim()).join(' '))
    for (let i = 0; i < segments.length; i++) add(segments[i]!.trim(), i === 0 ? '\n' : ' ')
  }
  return units
}

/** Splits a Markdown body into sections at headings (outside code fences), each with its heading path. */
function sectionsOf(doc: CorpusDocument): Section[] {
  const sections: Section[] = []
  const path: string[] = []
  let current: Section = { heading: doc.title, units: [] }
  let paragraph: string[] = []
  let inFence = false
  const flushParagraph = () => {
    if (paragraph.length > 0) current.units.push(...unitsOfParagraph(paragraph))
    paragraph = []
  }
  for (const line of doc.body.split(/\r?\n/)) {
    if (line.trimStart().startsWith('```')) inFence = !inFence
    const heading = inFence ? null : HEADING.exec(line)
    if (heading) {
      flushParagraph()
      if (current.units.length > 0) sections.push(current)
      const level = heading[1]!.length
      path.length = Math.max(0, level - 1)
      path[level - 1] = heading[2]!
      const trail = path.filter((part) => part && part !== doc.title)
      current = { heading: [doc.title, ...trail].join(' > '), units: [] }
    } else if (line.trim() === '') {
      flushParagraph()
    } else {
      paragraph.push(line)
    }
  }
  flushParagraph()
  if (current.units.length > 0) sections.push(current)
  return sections
}

/** [0-9A-Za-z] */
const isAsciiAlphanumeric = (code: number) => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)

/** Printable ASCII that is neither a letter, a digit nor a space: what o200k's fourth alternative runs over. */
const isAsciiPunctuation = (code: number) => code > 0x20 && code < 0x7f && !isAsciiAlphanumeric(code)

/**
 * countTextTokens(text + "\n") - countTextTokens("\n"), from `tokens`, the count of `text` (ending in a non-space).
 * o200k's pieces never look back and no piece runs from a letter or digit into the punctuation after it, so
 * only a trailing ASCII punctuation run is counted again with the newline (docs/scaling.md, "Large golden sets").
 */
function tokensBeforeNewline(text: string, tokens: number): number {
  let tail = text.length
  while (tail > 0 && isAsciiPunctuation(text.charCodeAt(tail - 1))) tail--
  const newline = countTextTokens('\n')
  if (tail === 0 || !isAsciiAlphanumeric(text.charCodeAt(tail - 1))) return countTextTokens(text + '\n') - newline
  if (tail === text.length) return tokens
  const punctuation = text.slice(tail)
  return tokens - countTextTokens(punctuation) + countTextTokens(punctuation + '\n') - newline
}

/**
 * What `left` (of count `leftTokens`, when known) adds to countTextTokens(left + right + ...); null when the parts
 * must be counted together. Exact where `left` ends on a piece boundary: before a space (a space only opens a
 * piece), or before a newline followed by neither a space nor "/" (only "\r", "\n" and "/" extend ".\n").
 */
function tokensBefore(left: string, leftTokens: number | null, right: string): number | null {
  if (left.length === 0 || /\s/.test(left[left.length - 1]!)) return null
  if (right.startsWith(' ')) return leftTokens ?? countTextTokens(left)
  if (right.startsWith('\n') && right.length > 1 && right[1] !== '/' && !/\s/.test(right[1]!))
    return tokensBeforeNewline(left, leftTokens ?? countTextTokens(left))
  return null
}

/** countTextTokens of the chunk text (heading, then each unit with its separator), from the counts already made where tokensBefore allows. */
function joinedTokenCount(heading: string, headingTokens: number, units: readonly Unit[]): number {
  let total = 0
  let group = heading
  let groupTokens: number | null = headingTokens
  units.forEach((unit, i) => {
    const separator = i === 0 ? '\n' : unit.separator
    const part = separator + unit.text
    const known = separator === unit.separator ? unit.tokens : null
    const before = tokensBefore(group, groupTokens, part)
    if (before !== null) {
      total += before
      group = part
      groupTokens = known
    } else {
      group += part
      groupTokens = null
    }
  })
  return total + (groupTokens ?? countTextTokens(group))
}

/**
 * Cuts a document into chunks of at most about `chunkTokens` tokens, never across sections, each starting with its
 * heading path; units are kept whole unless longer than a chunk; a section's chunks overlap by whole trailing units.
 */
export function chunkDocument(doc: CorpusDocument, options: ChunkOptions, firstOrdinal = 0): Chunk[] {
  const chunks: Chunk[] = []
  for (const section of sectionsOf(doc)) {
    const headingLine = section.heading
    const headingTokens = countTextTokens(headingLine)
    const room = Math.max(1, options.chunkTokens - headingTokens)
    const units = section.units.flatMap((unit) =>
      unit.tokens <= room
        ? [unit]
        : splitByTokens(unit.text, Math.max(1, room - 1)).map((text) => ({
            text,
            separator: ' ',
            tokens: countTextTokens(' ' + text),
          })),
    )
    let current: Unit[] = []
    let size = 0
    let fresh = 0
    const emit = () => {
      const text = headingLine + current.map((unit, i) => (i === 0 ? '\n' : unit.separator) + unit.text).join('')
      chunks.push({
        chunkId: `${doc.id}#${chunks.length + 1}`,
        docId: doc.id,
        ordinal: firstOrdinal + chunks.length,
        heading: headingLine,
        text,
        tokens: joinedTokenCount(headingLine, headingTokens, current),
      })
    }
    for (const unit of units) {
      if (size + unit.tokens > room && fresh > 0) {
        emit()
        // Carry whole trailing units into the next chunk, up to the overlap and leaving room for `unit`.
        const carried: Unit[] = []
        let carriedSize = 0
        for (let i = current.length - 1; i >= 0; i--) {
          const candidate = current[i]!
          if (carriedSize + candidate.tokens > options.chunkOverlap || carriedSize + candidate.tokens + unit.tokens > room) break
          carried.unshift(candidate)
          carriedSize += candidate.tokens
        }
        current = carried
        size = carriedSize
        fresh = 0
      }
      current.push(unit)
      size += unit.tokens
      fresh++
    }
    if (fresh > 0) emit()
  }
  return chunks
}

/** Chunks every document of a corpus, in corpus order; `each` sees every chunk as it is cut. */
export function chunkCorpus(docs: readonly CorpusDocument[], options: ChunkOptions, each?: (chunk: Chunk) => void): Chunk[] {
  const chunks: Chunk[] = []
  for (const doc of docs) {
    for (const chunk of chunkDocument(doc, options, chunks.length)) {
      chunks.push(chunk)
      each?.(chunk)
    }
  }
  return chunks
}
