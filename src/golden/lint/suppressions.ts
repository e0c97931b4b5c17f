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
 * Drops findings a question's notes accept (`lint-ignore: <rule> (reason)`, docs/golden-set.md, 'golden:check'): the
 * heuristic rules can be wrong about a question. Findings about the whole set cannot be suppressed.
 */
export function applySuppressions(findings: readonly Finding[], questions: readonly GoldenQuestion[]): Finding[] {
  const ignored = new Map(questions.map((q) => [q.id, ignoredRules(q)]))
  return findings.filter((f) => f.questionId === null || !(ignored.get(f.questionId)?.has(f.rule) ?? false))
}
