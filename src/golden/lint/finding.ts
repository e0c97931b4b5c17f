/** How bad a finding is: errors fail `pnpm golden:check` (exit 1), warnings are printed only. */
export type Severity = 'error' | 'warning'

/** Every lint rule in printing order, with severity and summary (docs/golden-set.md lists them for authors). */
export const RULES = {
  'invalid-json': { severity: 'error', summary: 'the file is not valid JSON' },
  schema: { severity: 'error', summary: 'a field breaks the golden-set schema (src/contract/golden-set-schema.ts)' },
  'duplicate-id': { severity: 'error', summary: 'two questions share an id' },
  'unknown-doc': { severity: 'error', summary: 'an answer document is not in the corpus' },
  'duplicate-question': { severity: 'error', summary: 'a question repeats or nearly repeats an earlier one' },
  'unsupported-fact': { severity: 'error', summary: 'the gold answer states a number none of its answer documents states' },
  'multi-facts-in-one-doc': {
    severity: 'error',
    summary: 'a multi question whose gold-answer facts all sit in one document',
  },
  'contradiction-without-governing': { severity: 'error', summary: 'a contradiction question without governingDocId' },
  'placeholder-gold-answer': { severity: 'error', summary: 'the gold answer is a TODO placeholder' },
  'probe-readable': { severity: 'error', summary: "a cross-tenant probe's document is one its asker may read" },
  'control-character': { severity: 'warning', summary: 'a question or gold answer holds an invisible control character' },
  'none-too-easy': { severity: 'warning', summary: 'a none question shares fewer than two content terms with its best chunk' },
  'type-distribution': { severity: 'warning', summary: 'fewer questions of a type than its floor' },
} as const satisfies Record<string, { severity: Severity; summary: string }>

export type RuleId = keyof typeof RULES

export const RULE_IDS = Object.keys(RULES) as RuleId[]

export interface Finding {
  severity: Severity
  rule: RuleId
  /** The question the finding is about (`#3` when it has no usable id); null for the golden set as a whole. */
  questionId: string | null
  /** What is wrong, with the evidence. */
  message: string
  /** What to change. */
  fix: string
}

/** A finding of `rule` with the rule's severity. */
export function finding(rule: RuleId, questionId: string | null, message: string, fix: string): Finding {
  return { severity: RULES[rule].severity, rule, questionId, message, fix }
}
