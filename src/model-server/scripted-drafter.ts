import { isQuantity, numberMatches } from '../text/key-facts.ts'
import { splitSentences } from '../text/sentences.ts'
import { contentTerms, tokenizeWords } from '../text/text-analyzer.ts'
import { fnv1a } from '../text/text-spans.ts'

// The local server's drafter for `rag-eval golden draft`: deterministic drafts and, on request, deliberately bad ones
// (docs/golden-set.md, "Testable here, and what that says"). Its drafts exercise the pipeline; they say nothing about
// what Claude drafts.

export const BAD_DRAFT_KINDS = ['unsupported', 'leaked', 'duplicate', 'not-multi', 'answerable-none'] as const
export type BadDraftKind = (typeof BAD_DRAFT_KINDS)[number]

const APPLIES: Record<string, readonly BadDraftKind[]> = {
  record_draft_single: ['unsupported', 'leaked', 'duplicate'],
  record_draft_multi: ['unsupported', 'not-multi'],
  record_draft_contradiction: [],
  record_draft_none: ['answerable-none'],
}

export interface Passage {
  chunkId: string
  text: string
}

const docOf = (passageId: string) => passageId.replace(/#\d+$/, '')
const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December)'
const MONTH_AFTER = new RegExp(`^\\s+${MONTH}\\b`)
const MONTH_BEFORE = new RegExp(`\\b${MONTH}\\s+$`)

/**
 * A sentence's figures that state a quantity, not part of an id or name ("doc-020", "p99", "SAML 2.0"), a version or
 * a date; a "%" right after one is part of it.
 */
function figures(sentence: string): { text: string; index: number; value: string }[] {
  return numberMatches(sentence).flatMap((m) => {
    const before = sentence.slice(0, m.index)
    const after = sentence.slice(m.index + m.text.length)
    const asked =
      isQuantity(sentence, m) &&
      !/\..*\./.test(m.text) &&
      !MONTH_AFTER.test(after) &&
      !MONTH_BEFORE.test(before) &&
      !/\b(?:SAML|OIDC|version|v)\s*$/i.test(before)
    return asked ? [{ ...m, text: after.startsWith('%') ? `${m.text}%` : m.text }] : []
  })
}

/** A passage's sentences, without its first line (the heading path the chunker puts there). */
function sentencesOf(passage: Passage): string[] {
  const body = passage.text.split('\n').slice(1).join('\n')
  return splitSentences(body).filter((s) => tokenizeWords(s).length >= 5 && !/^\|/.test(s))
}

/** The best-scored sentence to draft from, or the `nth` (wrapping) of those stating a figure when asked for another. */
function factSentence(passage: Passage, prefer: readonly string[] = [], nth = 0): string | null {
  const sentences = sentencesOf(passage)
  if (sentences.length === 0) return null
  const stating = sentences.filter((x) => figures(plain(x)).length > 0)
  if (nth > 0 && stating.length > 0) return stating[nth % stating.length]!
  const score = (s: string) => {
    const own = new Set(contentTerms(s))
    const referencesOnly = /^(?:Related|See also)\b/i.test(s) ? -200 : 0
    return (
      (figures(plain(s)).length > 0 ? 100 : 0) +
      referencesOnly -
      (/\(doc-/.test(s) ? 50 : 0) +
      prefer.filter((t) => own.has(t)).length
    )
  }
  let best = sentences[0]!
  for (const s of sentences) if (score(s) > score(best)) best = s
  return best
}

const plain = (text: string) => text.replace(/[*`]/g, '').trim()

/**
 * "Overrides expire after 30 days." -> "Overrides expire after how many days?". A sentence without a figure is asked
 * about by its section's heading instead, so the question never repeats its answer.
 */
export function clozeQuestion(sentence: string, heading: string, target?: string): string {
  const text = plain(sentence).replace(/[.!:;]+$/, '')
  const found = figures(text)
  const match = found.find((f) => f.value === target) ?? found[0]
  if (!match) return `What do the documents say about ${heading}?`
  const after = text.slice(match.index + match.text.length)
  const next = /^\s+([A-Za-z-]+)/.exec(after)?.[1] ?? ''
  const asked = match.text.endsWith('%') ? 'what percentage' : /s$/.test(next) && next.length > 3 ? 'how many' : 'what'
  const question = `${text.slice(0, match.index)}${asked}${after}`.replace(/\s+/g, ' ').trim()
  return `${question.charAt(0).toUpperCase()}${question.slice(1)}?`
}

/** What a passage is about, by its heading path (its first line): its section in its document ("why we do this" in Deployment Freeze Windows). */
function headingOf(passage: Passage): string {
  const path = (passage.text.split('\n')[0] ?? '').replace(/^#+\s*/, '').split(' > ')
  const last = path.at(-1)!.trim()
  const section = /^[A-Z]{2}/.test(last) ? last : `${last.charAt(0).toLowerCase()}${last.slice(1)}`
  return path.length > 1 ? `"${section}" in ${path[0]!.trim()}` : last
}

/** The first part of a passage's heading path: its document's title. */
const titleOf = (passage: Passage) =>
  (passage.text.split('\n')[0] ?? '')
    .split(' > ')[0]!
    .replace(/^#+\s*/, '')
    .trim()

const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text)

function withPersona(question: string, persona: string | null): string {
  if (persona === null) return question
  try {
    const context = JSON.parse(persona) as Record<string, unknown>
    const role = typeof context.role === 'string' ? context.role : null
    const tenant = typeof context.tenant === 'string' ? context.tenant : null
    if (role === null) return question
    return `I'm in ${role}${tenant === null ? '' : ` at ${tenant}`}. ${question}`
  } catch {
    return question
  }
}

/** The bad kind this request gets (null: a good draft): a function of the material, so the same request always gets the same. */
function badKind(
  tool: string,
  material: readonly Passage[],
  focus: string | null,
  round: number,
  kinds: readonly BadDraftKind[],
): BadDraftKind | null {
  const applicable = (APPLIES[tool] ?? []).filter((k) => kinds.includes(k))
  if (applicable.length === 0) return null
  const seed = `${focus ?? ''}|${round}|${material.map((p) => p.chunkId).join('|')}`
  const slot = (fnv1a(seed, 0, seed.length) >>> 0) % (applicable.length + 1)
  return slot < applicable.length ? applicable[slot]! : null
}

/** Another figure than the sentence's first: what an unsupported gold answer states. */
function alteredFigure(sentence: string): string {
  const [figure] = figures(sentence)
  if (figure === undefined) return `${sentence} It was introduced in 2019.`
  const value = Number(figure.value)
  const altered = `${value + 13}${figure.text.endsWith('%') ? '%' : ''}`
  return `${sentence.slice(0, figure.index)}${altered}${sentence.slice(figure.index + figure.text.length)}`
}

export interface DraftRequest {
  tool: string
  material: Passage[]
  focus: string | null
  persona: string | null
  /** single: drafts made from the focus passage before this one ("This is draft 2 from this passage"). */
  round: number
  /** "The documents: doc-a (updated 2026-01-02), doc-b." */
  documents: string | null
  badDrafts: readonly BadDraftKind[]
}

/** The scripted tool input for a drafting request; null when the tool is not one of the drafter's. */
export function scriptedDraft(request: DraftRequest): Record<string, unknown> | null {
  const { tool, material, persona } = request
  if (!(tool in APPLIES)) return null
  const bad = badKind(tool, material, request.focus, request.round, request.badDrafts)
  if (tool === 'record_draft_single') return single(request, bad)
  if (tool === 'record_draft_multi') return multi(material, persona, bad)
  if (tool === 'record_draft_contradiction') return contradiction(material, persona, request.documents)
  return none(material, persona, bad)
}

function single(request: DraftRequest, bad: BadDraftKind | null): Record<string, unknown> {
  const { material, persona } = request
  const at = Math.max(
    0,
    material.findIndex((p) => p.chunkId === request.focus),
  )
  // The focus, or a passage beside it when the focus states no figure (a "Related" list).
  const hasFigure = (p: Passage) => sentencesOf(p).some((x) => figures(plain(x)).length > 0)
  const focus = hasFigure(material[at]!) ? material[at]! : (material.find(hasFigure) ?? material[at]!)
  // A duplicate asks what another draft asks: the passage before the focus, or the focus's first fact again.
  const source = bad === 'duplicate' && at > 0 ? material[at - 1]! : focus
  const nth = bad === 'duplicate' ? 0 : request.round
  const sentence = factSentence(source, [], nth) ?? plain(source.text.split('\n').slice(1).join(' ')).slice(0, 200)
  const question =
    bad === 'leaked'
      ? `${plain(sentence).replace(/[.!:;]+$/, '')}?`
      : withPersona(clozeQuestion(sentence, headingOf(source)), persona)
  return {
    question,
    goldAnswer: bad === 'unsupported' ? alteredFigure(plain(sentence)) : plain(sentence),
    evidence: [{ passageId: source.chunkId, quote: sentence }],
  }
}

function multi(material: readonly Passage[], persona: string | null, bad: BadDraftKind | null): Record<string, unknown> {
  const termsOf = material.map((p) => new Set(contentTerms(p.text)))
  const shared = [...new Set(termsOf.flatMap((t) => [...t]))].filter((t) => termsOf.filter((s) => s.has(t)).length >= 2)
  const picked = material.map((p) => ({ passage: p, sentence: factSentence(p, shared) ?? plain(p.text).slice(0, 200) }))
  const asked = bad === 'not-multi' ? picked.slice(0, 1) : picked
  const question = asked
    .map(({ passage, sentence }, i) => {
      const q = clozeQuestion(sentence, headingOf(passage)).replace(/\?$/, '')
      return i === 0 ? q : `and ${lowerFirst(q)}`
    })
    .join(', ')
  const answer = asked.map(({ sentence }) => plain(sentence)).join(' ')
  return {
    question: withPersona(`${question}?`, persona),
    goldAnswer: bad === 'unsupported' ? alteredFigure(answer) : answer,
    evidence: picked.map(({ passage, sentence }) => ({ passageId: passage.chunkId, quote: sentence })),
  }
}

function jaccardWithoutNumbers(a: string, b: string): number {
  const terms = (s: string) => new Set(contentTerms(s).filter((t) => !/^\d/.test(t)))
  const [x, y] = [terms(a), terms(b)]
  const shared = [...x].filter((t) => y.has(t)).length
  return shared === 0 ? 0 : shared / (x.size + y.size - shared)
}

const numbersOf = (s: string) => figures(plain(s)).map((f) => f.value)

function contradiction(material: readonly Passage[], persona: string | null, documents: string | null): Record<string, unknown> {
  const [a, b] = material as [Passage, Passage]
  let best: { x: string; y: string; overlap: number } | null = null
  for (const x of sentencesOf(a))
    for (const y of sentencesOf(b)) {
      const [nx, ny] = [numbersOf(x), numbersOf(y)]
      if (nx.length === 0 || ny.length === 0 || (nx.length === ny.length && nx.every((n) => ny.includes(n)))) continue
      const overlap = jaccardWithoutNumbers(x, y)
      if (best === null || overlap > best.overlap) best = { x, y, overlap }
    }
  const [docA, docB] = [docOf(a.chunkId), docOf(b.chunkId)]
  if (best === null || best.overlap < 0.4)
    return {
      contradicts: false,
      question: 'Do these documents disagree?',
      goldAnswer: 'They do not state different values for the same fact.',
      evidence: [{ passageId: a.chunkId, quote: sentencesOf(a)[0] ?? a.text.split('\n')[0] }],
      governingDocId: null,
      reason: 'No two sentences state different values for the same fact.',
    }
  // The newer document governs when the documents line gives both dates; else the one that says it changed something.
  const dates = new Map([...(documents ?? '').matchAll(/([^\s,(]+) \(updated (\d{4}-\d{2}-\d{2})\)/g)].map((m) => [m[1]!, m[2]!]))
  const changes = (p: Passage) => /supersede|replace|no longer|change notice|from now on/i.test(p.text)
  const governsA =
    dates.has(docA) && dates.has(docB) && dates.get(docA) !== dates.get(docB)
      ? dates.get(docA)! > dates.get(docB)!
      : changes(a) || !changes(b)
  const [gov, other, govDoc, otherDoc] = governsA ? [best.x, best.y, docA, docB] : [best.y, best.x, docB, docA]
  // Ask for the figure the documents disagree on.
  const differing = numbersOf(gov).find((n) => !numbersOf(other).includes(n))
  return {
    contradicts: true,
    question: withPersona(clozeQuestion(gov, headingOf(governsA ? a : b), differing), persona),
    goldAnswer: `${plain(gov)} (${otherDoc} stated otherwise: ${plain(other)})`,
    evidence: [
      { passageId: a.chunkId, quote: best.x },
      { passageId: b.chunkId, quote: best.y },
    ],
    governingDocId: govDoc,
    reason: dates.has(govDoc) ? `${govDoc} is the newer document.` : `${govDoc} states the change.`,
  }
}

/** Things a product's documentation may well not cover: the none question asks about the first the material never names. */
const ELSEWHERE = [
  'Windows desktop agent',
  'mainframe connector',
  'Salesforce plug-in',
  'on-premises appliance',
  'Kubernetes operator',
]

function none(material: readonly Passage[], persona: string | null, bad: BadDraftKind | null): Record<string, unknown> {
  const topic = material[0]!
  if (bad === 'answerable-none') {
    const sentence = factSentence(topic) ?? plain(topic.text)
    return {
      question: withPersona(clozeQuestion(sentence, headingOf(topic)), persona),
      missing: 'nothing: the first passage answers it',
    }
  }
  const all = new Set(material.flatMap((p) => contentTerms(p.text)))
  const start = (fnv1a(topic.chunkId, 0, topic.chunkId.length) >>> 0) % ELSEWHERE.length
  const rotated = [...ELSEWHERE.slice(start), ...ELSEWHERE.slice(0, start)]
  const elsewhere = rotated.find((phrase) => contentTerms(phrase).every((t) => !all.has(t))) ?? rotated[0]!
  return {
    question: withPersona(`How does ${titleOf(topic)} apply to the ${elsewhere}?`, persona),
    missing: `The material never mentions the ${elsewhere}.`,
  }
}
