import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { contentTerms } from '../../text/text-analyzer.ts'
import { finding, type Finding } from './finding.ts'
import { stableStringify } from '../../common/stable-json.ts'

/** Content-term Jaccard similarity at or above which two questions are near-duplicates. */
export const NEAR_DUPLICATE_JACCARD = 0.8

/** A question's text for exact comparison: lower case, punctuation dropped, whitespace collapsed. */
export function normalisedText(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0
  for (const term of a) if (b.has(term)) shared++
  const union = a.size + b.size - shared
  return union === 0 ? 0 : shared / union
}

/** A question's text as duplicates are told: normalised, and its content terms. */
export interface Comparable {
  text: string
  terms: ReadonlySet<string>
}

export const comparable = (question: string): Comparable => ({
  text: normalisedText(question),
  terms: new Set(contentTerms(question)),
})

/** How one question repeats another: 'the same question', a near-duplicate (Jaccard >= 0.8), or null when it does not. */
export function repetition(a: Comparable, b: Comparable): string | null {
  if (a.text === b.text) return 'the same question'
  const similarity = jaccard(a.terms, b.terms)
  return similarity >= NEAR_DUPLICATE_JACCARD ? `a near-duplicate (content-term Jaccard ${similarity.toFixed(2)})` : null
}

type Setting = Pick<GoldenQuestion, 'userContext' | 'history'>

/** The same setting: equal userContext (keys in any order) and equal history, or neither has them. */
export function sameSetting(a: Setting, b: Setting): boolean {
  return (
    stableStringify([a.userContext ?? null, a.history ?? null]) === stableStringify([b.userContext ?? null, b.history ?? null])
  )
}

/**
 * Duplicate and near-duplicate questions (error: one retrieval weighed twice in every mean): the same normalised text
 * or a content-term Jaccard >= 0.8 in the same setting (another user's same words test a permission).
 */
export function duplicateQuestions(questions: readonly GoldenQuestion[]): Finding[] {
  const findings: Finding[] = []
  const seen = questions.map((q) => ({ q, text: normalisedText(q.question), terms: new Set(contentTerms(q.question)) }))
  seen.forEach((later, index) => {
    for (const earlier of seen.slice(0, index)) {
      if (!sameSetting(later.q, earlier.q)) continue
      if (later.text === earlier.text) {
        findings.push(
          finding(
            'duplicate-question',
            later.q.id,
            `asks the same question as ${earlier.q.id}: "${earlier.q.question}"`,
            `delete ${later.q.id} or ${earlier.q.id}, keeping the one with the better gold answer`,
          ),
        )
        return
      }
      const similarity = jaccard(later.terms, earlier.terms)
      if (similarity < NEAR_DUPLICATE_JACCARD) continue
      const shared = [...later.terms].filter((term) => earlier.terms.has(term))
      const union = new Set([...later.terms, ...earlier.terms]).size
      findings.push(
        finding(
          'duplicate-question',
          later.q.id,
          `near-duplicate of ${earlier.q.id} ("${earlier.q.question}"): ` +
            `content-term Jaccard ${similarity.toFixed(2)} >= ${NEAR_DUPLICATE_JACCARD} (${shared.length} ` +
            `of ${union} terms shared: ${shared.join(', ')})`,
          `delete one of the two, or make ${later.q.id} ask about a different fact, tier or condition than ${earlier.q.id}`,
        ),
      )
      return
    }
  })
  return findings
}
