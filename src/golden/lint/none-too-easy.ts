import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { contentTerms } from '../../text/text-analyzer.ts'
import { finding, type Finding } from './finding.ts'

/** A none question should share at least this many distinct content terms with its best chunk. */
export const MIN_SHARED_TERMS = 2

/** The best-ranked chunk of the built-in system for a question; null when no chunk shares a term. */
export interface BestChunk {
  chunkId: string
  text: string
}

/**
 * A none question whose best BM25 chunk (best-chunks.ts) shares fewer than two distinct content terms with it
 * (warning): any system then refuses, and the question measures the tokenizer, not abstention.
 */
export function noneTooEasy(questions: readonly GoldenQuestion[], bestChunks: ReadonlyMap<string, BestChunk | null>): Finding[] {
  const findings: Finding[] = []
  for (const question of questions) {
    // A cross-tenant probe is answered elsewhere on purpose: another tenant's documents hold its answer.
    if (question.type !== 'none' || question.probeDocIds !== undefined) continue
    const best = bestChunks.get(question.id) ?? null
    const questionTerms = new Set(contentTerms(question.question))
    const chunkTerms = new Set(best === null ? [] : contentTerms(best.text))
    const shared = [...questionTerms].filter((term) => chunkTerms.has(term))
    if (shared.length >= MIN_SHARED_TERMS) continue
    const what =
      best === null
        ? 'no chunk shares a content term with it'
        : `its best chunk ${best.chunkId} shares ${shared.length} content ` +
          `term${shared.length === 1 ? '' : 's'} with it${shared.length > 0 ? ` (${shared.join(', ')})` : ''}`
    findings.push(
      finding(
        'none-too-easy',
        question.id,
        `${what}; below ${MIN_SHARED_TERMS}, any system refuses it, so it measures the tokenizer, not abstention`,
        'ask about something the corpus almost answers: reuse the words of a near-miss document (same ' +
          'topic, missing fact) so that it ranks a strong distractor',
      ),
    )
  }
  return findings
}
