import { splitSentences } from './sentences.ts'
import { contentTerms } from './text-analyzer.ts'

/**
 * A context passage as the offline answerer and the lexical judge read it: the content terms of its first
 * line (the heading path), and each sentence of the rest (splitSentences) with its content terms. A
 * passage without a line break is all heading.
 */
export interface PassageAnalysis {
  headingTerms: readonly string[]
  sentences: readonly { text: string; terms: readonly string[] }[]
}

/**
 * How many passages each of the two generations of recent analyses holds: all of a 10,000-question run's
 * contexts (32,000 distinct chunks; the judge reads them after every question is answered). Measured on
 * that run, keeping them lowers the peak (about 600 MB against 670 for the CLI): re-analysing them made
 * more garbage than they hold.
 */
const GENERATION = 40_000
let recent = new Map<string, PassageAnalysis>()
let older = new Map<string, PassageAnalysis>()

function analyse(text: string): PassageAnalysis {
  const newline = text.indexOf('\n')
  if (newline === -1) return { headingTerms: contentTerms(text), sentences: [] }
  return {
    headingTerms: contentTerms(text.slice(0, newline)),
    sentences: splitSentences(text.slice(newline + 1)).map((sentence) => ({ text: sentence, terms: contentTerms(sentence) })),
  }
}

/**
 * The analysis of a passage, kept while it is recent: the judge reads the contexts the answerer read, and
 * questions share chunks (10,000 questions' contexts hold 53,000 chunks, 32,000 distinct). Two
 * generations (the older one dropped when the recent one is full) keep what is still in use.
 */
export function analysePassage(text: string): PassageAnalysis {
  let analysis = recent.get(text)
  if (analysis !== undefined) return analysis
  analysis = older.get(text) ?? analyse(text)
  if (recent.size >= GENERATION) {
    older = recent
    recent = new Map()
  }
  recent.set(text, analysis)
  return analysis
}

/** Drops the kept analyses: the run's last reader (the judge) is done, and its reports are about to be serialised. */
export function forgetPassageAnalyses(): void {
  recent = new Map()
  older = new Map()
}
