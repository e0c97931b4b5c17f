import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { Finding } from './finding.ts'

const MARKER = /lint-ignore:\s*([a-z-]+(?:\s*,\s*[a-z-]+)*)/g

/** The rules a question's notes switch off: `lint-ignore: rule-a, rule-b` anywhere in notes. */
export function ignoredRules(question: GoldenQuestion): Set<string> {
  const rules = new Set<string>()
  for (const match of (question.notes ?? '').matchAll(MARKER)) for (const rule of match[1]!.split(',')) rules.add(rule.trim())
  return rules
}

/**
 * Drops the findings a question's notes accept. The heuristic rules (facts, near-duplicates, none
 * questions) can be wrong about a question; the author records the decision where the question
 * lives, with the reason, e.g. `"notes": "... lint-ignore: multi-facts-in-one-doc (doc-021 gives the
 * billing cadence)"`. Findings about the whole set cannot be switched off this way.
 */
export function applySuppressions(findings: readonly Finding[], questions: readonly GoldenQuestion[]): Finding[] {
  const ignored = new Map(questions.map((q) => [q.id, ignoredRules(q)]))
  return findings.filter((f) => f.questionId === null || !(ignored.get(f.questionId)?.has(f.rule) ?? false))
}
