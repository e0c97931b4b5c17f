import type { CorpusDocument } from '../load/corpus.ts'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import type { QuestionType } from '../contract/question-types.ts'
import { termOf } from '../text/text-analyzer.ts'
import { mulberry32 } from '../statistics/seeded-random.ts'

/**
 * A deterministic synthetic corpus and golden set for benchmarks: N Markdown documents (a `# title`,
 * `##`/`###` sections, paragraphs of template sentences, some bullet lists) written in a made-up
 * vocabulary of a few thousand words drawn with a Zipf-like distribution, and M questions of mixed
 * types whose text shares terms with their answer documents. Everything comes from one seeded PRNG
 * stream, so the same options give byte-identical output on every machine.
 */

export type SyntheticQuestionType = Extract<QuestionType, 'single' | 'multi' | 'none'>
export const SYNTHETIC_QUESTION_TYPES = ['single', 'multi', 'none'] as const satisfies readonly SyntheticQuestionType[]

export interface SyntheticCorpusOptions {
  seed: number
  documents: number
  questions: number
  /** Relative weights of the question types (counts are apportioned exactly). Default 60 / 25 / 15. */
  typeMix?: Partial<Record<SyntheticQuestionType, number>>
  /** Distinct made-up words the documents are written in. Default 4,000. */
  vocabularySize?: number
  /** Words per document body (headings included), inclusive. Default 150..900. */
  minWords?: number
  maxWords?: number
}

export interface SyntheticCorpus {
  documents: CorpusDocument[]
  questions: GoldenQuestion[]
}

export const DEFAULT_TYPE_MIX: Record<SyntheticQuestionType, number> = { single: 0.6, multi: 0.25, none: 0.15 }

/** Words as the generator counts them (`#` and `-` markers are not words). */
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0
}

/** The document as a Markdown file with front matter, as `parseCorpusDocument` reads it. */
export function toMarkdownFile(doc: CorpusDocument): string {
  return `---\nid: ${doc.id}\ntitle: ${doc.title}\nupdated: ${doc.updated}\n---\n${doc.body}`
}

// ---------------------------------------------------------------------------------------------------
// PRNG

/** mulberry32 with a mixed seed, and the draws the generator needs. */
class Rng {
  readonly next: () => number

  constructor(seed: number) {
    // Mix the seed so that nearby seeds start far apart.
    let h = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b)
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
    this.next = mulberry32((h ^ (h >>> 16)) >>> 0)
  }

  /** An integer in lo..hi inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** `count` distinct items (fewer if there are fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items]
    const n = Math.min(count, copy.length)
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i))
      ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
    }
    return copy.slice(0, n)
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[items[i], items[j]] = [items[j]!, items[i]!]
    }
    return items
  }
}

// ---------------------------------------------------------------------------------------------------
// Vocabulary

const ONSETS = [
  'b',
  'c',
  'd',
  'f',
  'g',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'r',
  's',
  't',
  'v',
  'w',
  'z',
  'br',
  'ch',
  'cl',
  'dr',
  'fl',
  'gr',
  'pl',
  'pr',
  'sh',
  'st',
  'th',
  'tr',
]
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'ai', 'ea', 'ou']
const CODAS = ['', '', '', 'n', 'r', 'l', 's', 't', 'm', 'x', 'nd', 'rk', 'st', 'ng']

function makeWord(rng: Rng): string {
  const roll = rng.next()
  const syllables = roll < 0.3 ? 1 : roll < 0.8 ? 2 : 3
  let word = ''
  for (let s = 0; s < syllables; s++) {
    word += (s === 0 || rng.chance(0.85) ? rng.pick(ONSETS) : '') + rng.pick(NUCLEI)
    if (s === syllables - 1 || rng.chance(0.2)) word += rng.pick(CODAS)
  }
  return word
}

/**
 * `size` distinct made-up words ordered by frequency rank (shorter words tend to rank higher, as in
 * natural languages), plus `reserved` further words that never appear in any document (for the
 * unanswerable questions): their search terms match no term of the vocabulary, suffixed forms
 * included. Words the analyser would drop as stopwords are rejected.
 */
function makeVocabulary(rng: Rng, size: number, reserved: number): { ranked: string[]; reserved: string[] } {
  const seen = new Set<string>()
  const words: string[] = []
  while (words.length < size) {
    const word = makeWord(rng)
    if (word.length < 3 || seen.has(word) || termOf(word) === null) continue
    seen.add(word)
    words.push(word)
  }
  const usedTerms = new Set(words.flatMap((word) => ['', ...VERB_SUFFIXES].map((suffix) => termOf(word + suffix))))
  const spare: string[] = []
  while (spare.length < reserved) {
    const word = makeWord(rng)
    const term = termOf(word)
    if (word.length < 3 || seen.has(word) || term === null || usedTerms.has(term)) continue
    seen.add(word)
    spare.push(word)
  }
  const keyed = words.map((word, i) => ({ word, key: word.length + rng.next() * 4, i }))
  keyed.sort((a, b) => a.key - b.key || a.i - b.i)
  return { ranked: keyed.map((k) => k.word), reserved: spare }
}

/** Samples vocabulary ranks with Zipf-Mandelbrot weights 1 / (rank + 2.7)^1.07. */
class ZipfSampler {
  readonly #cumulative: Float64Array
  readonly #words: readonly string[]

  constructor(words: readonly string[]) {
    this.#words = words
    this.#cumulative = new Float64Array(words.length)
    let total = 0
    for (let r = 0; r < words.length; r++) {
      total += 1 / Math.pow(r + 2.7, 1.07)
      this.#cumulative[r] = total
    }
  }

  word(rng: Rng): string {
    const cumulative = this.#cumulative
    const target = rng.next() * cumulative[cumulative.length - 1]!
    let lo = 0
    let hi = cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cumulative[mid]! < target) lo = mid + 1
      else hi = mid
    }
    return this.#words[lo]!
  }
}

// ---------------------------------------------------------------------------------------------------
// Sentences

const DETERMINERS = ['the', 'the', 'the', 'a', 'each', 'every', 'this', 'that', 'any', 'its', 'their']
const PREPOSITIONS = ['of', 'for', 'in', 'on', 'with', 'by', 'from', 'to', 'before', 'after', 'during', 'under', 'per']
const MODALS = ['must', 'should', 'can', 'may', 'will', 'cannot']
const VERB_SUFFIXES = ['s', 's', 'ed', 'es', 'ing']
const UNITS = ['minutes', 'hours', 'days', 'percent', 'requests', 'seconds', 'weeks']
const TITLE_NOUNS = [
  'Policy',
  'Guide',
  'Overview',
  'Rules',
  'Limits',
  'Process',
  'Runbook',
  'Reference',
  'Handbook',
  'Checklist',
  'Settings',
]
const HEADING_NOUNS = [
  'overview',
  'rules',
  'limits',
  'exceptions',
  'examples',
  'approvals',
  'defaults',
  'history',
  'escalation',
  'scope',
  'costs',
]

/**
 * Sentence patterns. N: a noun slot, A: an adjective slot, V: a verb slot (word + English suffix),
 * B: a bare verb, D: determiner, P: preposition, M: modal, Q: a number and unit; a trailing `?` makes
 * a slot optional; anything else is literal. Content slots draw from the doc's topic words or the
 * Zipf vocabulary.
 */
const PATTERNS = [
  'D A? N V D N P D N',
  'D N V D A? N',
  'when D N V , D N M B D N',
  'D N is A and A? P D N',
  'if D N V D N , then D N M B P D A? N',
  'use D N to B D A? N P D N',
  'a N can B only after D N V within Q',
  'D N P D N M B no more than Q',
  'every N V D N , and D A? N V D N',
  'D A N of D N is Q by default',
  'there is no N for D N unless D N V D N',
  'D N M B D N when D N V',
].map((p) => p.split(' '))

interface Topic {
  /** Cluster words (shared by the documents of a cluster: realistic distractors). */
  cluster: readonly string[]
  /** The document's own words, rarer and discriminative. */
  own: readonly string[]
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

class Writer {
  constructor(
    private readonly rng: Rng,
    private readonly zipf: ZipfSampler,
  ) {}

  content(topic: Topic): string {
    const rng = this.rng
    const roll = rng.next()
    if (roll < 0.12) return rng.pick(topic.own)
    if (roll < 0.3) return rng.pick(topic.cluster)
    return this.zipf.word(rng)
  }

  /** One sentence as a list of words and punctuation (no final period). */
  sentenceWords(topic: Topic): string[] {
    const rng = this.rng
    const out: string[] = []
    const patterns = rng.chance(0.15) ? [rng.pick(PATTERNS), rng.pick(PATTERNS)] : [rng.pick(PATTERNS)]
    patterns.forEach((pattern, n) => {
      if (n > 0) out.push(',', rng.pick(['and', 'but', 'so', 'while']))
      for (const raw of pattern) {
        const optional = raw.length > 1 && raw.endsWith('?')
        const slot = optional ? raw.slice(0, -1) : raw
        if (optional && rng.chance(0.5)) continue
        switch (slot) {
          case 'N':
          case 'A':
          case 'B':
            out.push(this.content(topic))
            break
          case 'V':
            out.push(this.content(topic) + rng.pick(VERB_SUFFIXES))
            break
          case 'D':
            out.push(rng.pick(DETERMINERS))
            break
          case 'P':
            out.push(rng.pick(PREPOSITIONS))
            break
          case 'M':
            out.push(rng.pick(MODALS))
            break
          case 'Q':
            out.push(String(rng.pick([1, 2, 3, 5, 10, 15, 20, 24, 30, 48, 50, 60, 90, 99, 100, 250])), rng.pick(UNITS))
            break
          default:
            out.push(slot)
        }
      }
    })
    return out
  }
}

/** Joins words and punctuation into a sentence: capitalised, commas attached, a final period. */
function renderSentence(words: readonly string[]): string {
  let text = ''
  for (const word of words) {
    if (word === ',') text += ','
    else text += text === '' ? capitalise(word) : ' ' + word
  }
  return text + '.'
}

function wordsOf(words: readonly string[]): number {
  let n = 0
  for (const w of words) if (w !== ',') n++
  return n
}

// ---------------------------------------------------------------------------------------------------
// Documents

interface DocPlan {
  doc: CorpusDocument
  cluster: number
  topic: Topic
}

/** A document's markdown as it is written: its lines, the words so far against the target, the open paragraph. */
class DocumentLines {
  readonly lines: string[]
  /** Words so far (the title's count as 3). */
  count = 3
  /** Whether the current section has a sentence yet. */
  sectionHasText = false
  #paragraph: string[] = []

  constructor(
    title: string,
    readonly target: number,
    private readonly writer: Writer,
    private readonly topic: Topic,
  ) {
    this.lines = [`# ${title}`, '']
  }

  flush(): void {
    if (this.#paragraph.length > 0) this.lines.push(this.#paragraph.join(' '), '')
    this.#paragraph = []
  }

  /** Adds a sentence, cut short if it would pass the target. Returns false once the target is reached. */
  addSentence(into: 'paragraph' | 'item'): boolean {
    let words = this.writer.sentenceWords(this.topic)
    const room = this.target - this.count
    if (room <= 0) return false
    if (wordsOf(words) > room) {
      const kept: string[] = []
      let n = 0
      for (const w of words) {
        if (w === ',') continue
        if (n === room) break
        kept.push(w)
        n++
      }
      words = kept
    }
    this.count += wordsOf(words)
    const sentence = renderSentence(words)
    if (into === 'paragraph') this.#paragraph.push(sentence)
    else this.lines.push(`- ${sentence}`)
    this.sectionHasText = true
    return this.count < this.target
  }

  text(): string {
    return (
      this.lines
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trimEnd() + '\n'
    )
  }
}

function makeDocument(
  rng: Rng,
  writer: Writer,
  id: string,
  topic: Topic,
  minWords: number,
  maxWords: number,
  dayOffset: number,
): CorpusDocument {
  const target = rng.int(minWords, maxWords)
  const title = `${capitalise(topic.own[0]!)} ${capitalise(rng.pick(topic.cluster))} ${rng.pick(TITLE_NOUNS)}`
  const doc = new DocumentLines(title, target, writer, topic)
  let sections = 0

  // Introduction, then sections until the word target is reached.
  let going = true
  for (let s = rng.int(1, 3); s > 0 && going; s--) going = doc.addSentence('paragraph')
  doc.flush()
  while (going) {
    if (target - doc.count < 12 && sections > 0 && doc.sectionHasText) {
      // Too little room left for a new section: finish the current one.
      while (going) going = doc.addSentence('paragraph')
      break
    }
    going = addSection(rng, writer, topic, doc, sections > 0)
    sections++
  }
  doc.flush()
  const date = new Date(Date.UTC(2024, 0, 1) + dayOffset * 86_400_000).toISOString().slice(0, 10)
  return { id, title, updated: date, file: `synthetic/${id}.md`, body: doc.text() }
}

/** A heading (a subsection now and then) and one to three paragraphs or lists; false once the word target is reached. */
function addSection(rng: Rng, writer: Writer, topic: Topic, doc: DocumentLines, afterAnother: boolean): boolean {
  const level = afterAnother && doc.sectionHasText && rng.chance(0.15) ? '###' : '##'
  const headingWords = [capitalise(writer.content(topic)), rng.pick(HEADING_NOUNS)]
  if (rng.chance(0.4)) headingWords.splice(1, 0, writer.content(topic))
  doc.lines.push(`${level} ${headingWords.join(' ')}`, '')
  doc.count += headingWords.length
  doc.sectionHasText = false
  let going = true
  for (let p = rng.int(1, 3); p > 0 && going; p--) {
    if (rng.chance(0.18)) {
      doc.flush()
      for (let i = rng.int(3, 5); i > 0 && going; i--) going = doc.addSentence('item')
      doc.lines.push('')
    } else {
      for (let i = rng.int(2, 6); i > 0 && going; i--) going = doc.addSentence('paragraph')
      doc.flush()
    }
  }
  return going
}

// ---------------------------------------------------------------------------------------------------
// Questions

const SINGLE_TEMPLATES = [
  'How does the {a} {b} handle {c}?',
  'What is the {a} limit for {b} {c}?',
  'Who approves a {a} {b} change?',
  'When should the {a} {b} be reviewed?',
  'Which {a} applies to {b} {c}?',
  'Why would a {a} {b} fail during {c}?',
  'What happens to {a} {b} after {c}?',
  'Can a {a} be used for {b} {c}?',
]
const MULTI_TEMPLATES = [
  'How do {a} {b} and {c} {d} differ?',
  'Does the {a} {b} rule also cover {c} {d}?',
  'What do {a} {b} and {c} {d} have in common?',
  'If {a} {b} fails, what changes for {c} {d}?',
]
const NONE_TEMPLATES = [
  'What is the {a} {b} policy for {c}?',
  'How long does a {a} {b} take?',
  'Who owns the {a} {b} budget?',
  'Is there a {a} for {b} {c}?',
]

function fill(template: string, words: readonly string[]): string {
  const text = template.replace(/\{([a-d])\}/g, (_, slot: string) => words['abcd'.indexOf(slot)] ?? words[words.length - 1]!)
  return capitalise(text)
}

/** The first sentence of `body` containing `word` (or the first sentence), for a gold answer. */
function sentenceWith(body: string, word: string): string {
  const sentences = body
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .flatMap((line) => line.replace(/^- /, '').split(/(?<=\.)\s+/))
  return sentences.find((s) => s.toLowerCase().match(WORD)?.includes(word) ?? false) ?? sentences[0]!
}

/** Exact counts per type for `total` questions (largest remainder), in a seeded random order. */
function typeSequence(rng: Rng, total: number, mix: Record<SyntheticQuestionType, number>): SyntheticQuestionType[] {
  const weights = SYNTHETIC_QUESTION_TYPES.map((type) => Math.max(0, mix[type]))
  const sum = weights.reduce((a, b) => a + b, 0)
  if (!(sum > 0)) throw new Error('typeMix: expected at least one positive weight')
  const exact = weights.map((w) => (w / sum) * total)
  const counts = exact.map(Math.floor)
  let left = total - counts.reduce((a, b) => a + b, 0)
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i)
  for (const { i } of order) {
    if (left === 0) break
    counts[i]!++
    left--
  }
  const types = SYNTHETIC_QUESTION_TYPES.flatMap((type, i) => Array<SyntheticQuestionType>(counts[i]!).fill(type))
  return rng.shuffle(types)
}

/** Those of `words` that occur as whole words in the plan's body (own[0] is in the title, so always). */
function presentWords(plan: DocPlan, words: readonly string[]): string[] {
  const present = new Set(plan.doc.body.toLowerCase().match(WORD))
  return words.filter((w) => present.has(w))
}

function makeQuestion(
  rng: Rng,
  id: string,
  type: SyntheticQuestionType,
  plans: readonly DocPlan[],
  byCluster: readonly number[][],
  reserved: readonly string[],
  zipf: ZipfSampler,
): GoldenQuestion {
  if (type === 'none') {
    const words = rng.sample(reserved, 3)
    if (rng.chance(0.5)) words[2] = zipf.word(rng)
    return { id, type, question: fill(rng.pick(NONE_TEMPLATES), words), answerDocIds: [] }
  }
  if (type === 'single') {
    const plan = plans[rng.int(0, plans.length - 1)]!
    const own = presentWords(plan, plan.topic.own)
    const cluster = presentWords(plan, plan.topic.cluster)
    const words = [own[0]!, ...rng.sample(own.slice(1), 1), ...rng.sample(cluster, 2)].slice(0, 3)
    while (words.length < 3) words.push(own[0]!)
    const [first, second, third] = rng.shuffle(words) as [string, string, string]
    return {
      id,
      type,
      question: fill(rng.pick(SINGLE_TEMPLATES), [first, second, third]),
      answerDocIds: [plan.doc.id],
      goldAnswer: sentenceWith(plan.doc.body, first),
    }
  }
  // multi: two (sometimes three) documents, from one cluster when it has enough of them.
  const first = rng.int(0, plans.length - 1)
  const siblings = byCluster[plans[first]!.cluster]!.filter((i) => i !== first)
  const wanted = rng.chance(0.25) ? 2 : 1
  const others = siblings.length >= wanted ? rng.sample(siblings, wanted) : []
  while (others.length < wanted) {
    const other = rng.int(0, plans.length - 1)
    if (other !== first && !others.includes(other)) others.push(other)
  }
  const chosen = [first, ...others].map((i) => plans[i]!)
  const words = chosen.slice(0, 2).flatMap((plan) => {
    const own = presentWords(plan, plan.topic.own)
    return [own[0]!, own.length > 1 ? rng.pick(own.slice(1)) : rng.pick(presentWords(plan, plan.topic.cluster).concat(own))]
  })
  if (chosen.length === 3) words[3] = presentWords(chosen[2]!, chosen[2]!.topic.own)[0]!
  return {
    id,
    type,
    question: fill(rng.pick(MULTI_TEMPLATES), words),
    answerDocIds: chosen.map((plan) => plan.doc.id),
    goldAnswer: chosen
      .slice(0, 2)
      .map((plan, i) => sentenceWith(plan.doc.body, words[i * 2]!))
      .join(' '),
  }
}

// ---------------------------------------------------------------------------------------------------

function pad(n: number, total: number): string {
  return String(n).padStart(Math.max(5, String(total).length), '0')
}

export function generateSyntheticCorpus(options: SyntheticCorpusOptions): SyntheticCorpus {
  const { seed, documents: docCount, questions: questionCount } = options
  const vocabularySize = options.vocabularySize ?? 4000
  const minWords = options.minWords ?? 150
  const maxWords = options.maxWords ?? 900
  if (!Number.isInteger(seed)) throw new Error(`seed ${seed}: expected an integer`)
  if (!Number.isInteger(docCount) || docCount < 3) throw new Error(`documents ${docCount}: expected an integer of at least 3`)
  if (!Number.isInteger(questionCount) || questionCount < 0)
    throw new Error(`questions ${questionCount}: expected a non-negative integer`)
  if (!Number.isInteger(vocabularySize) || vocabularySize < 500)
    throw new Error(`vocabularySize ${vocabularySize}: expected at least 500`)
  if (!(minWords >= 30 && maxWords >= minWords)) throw new Error(`words ${minWords}..${maxWords}: expected 30 <= min <= max`)

  const rng = new Rng(seed)
  const { ranked, reserved } = makeVocabulary(rng, vocabularySize, Math.max(60, Math.round(vocabularySize / 20)))
  const zipf = new ZipfSampler(ranked)
  const writer = new Writer(rng, zipf)

  // Topic clusters of mid-frequency words; each document adds a few rarer words of its own.
  const midBand = ranked.slice(Math.round(vocabularySize * 0.05))
  const rareBand = ranked.slice(Math.round(vocabularySize * 0.25))
  const clusterCount = Math.max(3, Math.round(docCount / 40))
  const clusters = Array.from({ length: clusterCount }, () => rng.sample(midBand, 24))
  const byCluster: number[][] = clusters.map(() => [])

  const plans: DocPlan[] = []
  for (let i = 0; i < docCount; i++) {
    const cluster = rng.int(0, clusterCount - 1)
    const topic: Topic = { cluster: rng.sample(clusters[cluster]!, 6), own: rng.sample(rareBand, 3) }
    const doc = makeDocument(rng, writer, `syn-${pad(i + 1, docCount)}`, topic, minWords, maxWords, rng.int(0, 900))
    byCluster[cluster]!.push(i)
    plans.push({ doc, cluster, topic })
  }

  const mix = { ...DEFAULT_TYPE_MIX, ...options.typeMix }
  const questions = typeSequence(rng, questionCount, mix).map((type, i) =>
    makeQuestion(rng, `sq-${pad(i + 1, questionCount)}`, type, plans, byCluster, reserved, zipf),
  )
  return { documents: plans.map((plan) => plan.doc), questions }
}
