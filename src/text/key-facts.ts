import { contentTerms } from './text-analyzer.ts'

/**
 * A text's key facts, the one definition for every reader of a gold answer (docs/metrics.md, coverage): its numbers,
 * which a document can be checked for, and its content terms (stemmed, no stopwords), which a paraphrase changes.
 */
export interface KeyFacts {
  numbers: string[]
  terms: string[]
}

/** A number of a text where it is written, with its normalised value (see extractNumbers). */
export interface NumberMatch {
  /** As written ("5,000"). */
  text: string
  index: number
  /** Normalised ("5000"). */
  value: string
}

/**
 * A text's numbers in order, with repeats, normalised so one quantity compares equal however written ("5,000" ->
 * "5000", "2.50" -> "2.5", "90-day" -> "90", "p99" -> "99"); versions stay whole (docs/golden-set.md, `unsupported-fact`).
 */
export function numberMatches(text: string): NumberMatch[] {
  return [...text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)+|\d+/g)].map((match) => {
    const raw = match[0].replace(/,/g, '')
    const value = /^\d+\.\d+$/.test(raw) ? String(Number(raw)) : raw.replace(/^0+(?=\d)/, '')
    return { text: match[0], index: match.index, value }
  })
}

/**
 * Whether a number of `text` is written as a quantity, not as part of an identifier or a name: nothing of a
 * word, a hyphen or a dot glued before it, no word glued after it ("doc-020", "p99", "SEV1" are not quantities).
 */
export function isQuantity(text: string, match: NumberMatch): boolean {
  return !/[\w.-]$/.test(text.slice(0, match.index)) && !/^(?:\w|\.\d)/.test(text.slice(match.index + match.text.length))
}

/** The normalised numbers of a text (numberMatches' values). */
export function extractNumbers(text: string): string[] {
  return numberMatches(text).map((match) => match.value)
}

/** The key facts of a text: its distinct numbers and its distinct content terms that are not numbers. */
export function keyFacts(text: string): KeyFacts {
  const numbers = [...new Set(extractNumbers(text))]
  const numberSet = new Set(numbers)
  const terms = [...new Set(contentTerms(text))].filter((term) => !numberSet.has(term) && !/^\d/.test(term))
  return { numbers, terms }
}

/** What a text states, to check key facts against: all its numbers and all its content terms. */
export interface FactEvidence {
  numbers: ReadonlySet<string>
  terms: ReadonlySet<string>
}

export function factEvidence(text: string): FactEvidence {
  return { numbers: new Set(extractNumbers(text)), terms: new Set(contentTerms(text)) }
}

/** What a text states as quantities: the numbers it writes as quantities (isQuantity), and all its content terms. */
export function quantityEvidence(text: string): FactEvidence {
  const numbers = numberMatches(text).filter((match) => isQuantity(text, match))
  return { numbers: new Set(numbers.map((match) => match.value)), terms: new Set(contentTerms(text)) }
}

/** The facts that some of the evidence states. */
export function statedFacts(facts: KeyFacts, evidence: readonly FactEvidence[]): KeyFacts {
  return {
    numbers: facts.numbers.filter((n) => evidence.some((e) => e.numbers.has(n))),
    terms: facts.terms.filter((t) => evidence.some((e) => e.terms.has(t))),
  }
}

/** The facts that none of the evidence states. */
export function unstatedFacts(facts: KeyFacts, evidence: readonly FactEvidence[]): KeyFacts {
  const stated = statedFacts(facts, evidence)
  return {
    numbers: facts.numbers.filter((n) => !stated.numbers.includes(n)),
    terms: facts.terms.filter((t) => !stated.terms.includes(t)),
  }
}

/** How many facts there are. */
export function factCount(facts: KeyFacts): number {
  return facts.numbers.length + facts.terms.length
}
