import { ACCEPT_BASELINE } from '../gate/baseline-location.ts'
import type { QuestionVerdict } from '../contract/gate-schema.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { describeEvidence, type QuestionEvidence } from './matchers/evidence.ts'

export interface CaseNote {
  message: string
  type: 'notice' | 'warning' | 'error'
}

/** How a question's case treats a miss: fail, an expected failure (it.fails: a known miss), or report only (no GATE=1). */
export interface CasePlan {
  kind: 'assert' | 'expected-failure' | 'report-only'
  notes: CaseNote[]
}

/** A question case's name, `<id> [<type>] <question>`: the merge finds a shard's case of a question by it. */
export function questionCaseName(outcome: Pick<QuestionOutcome, 'id' | 'type' | 'question'>): string {
  return `${outcome.id} [${outcome.type}] ${outcome.question}`
}

const UPDATE_HINT = `accept it with \`${ACCEPT_BASELINE}\``

/** Plans a question case from its verdict (undefined: no baseline), whether it passes now (null: undecidable), the mode. */
export function planQuestionCase(
  verdict: QuestionVerdict | undefined,
  currentPassed: boolean | null,
  mode: { gate: boolean; strict: boolean },
  /** The gate's policy: under 'significant' and 'both' a lost question is reported, the metrics' tests decide. */
  policy: 'tolerance' | 'significant' | 'both' = 'tolerance',
): CasePlan {
  const missing = currentPassed === false
  const plan = ((): CasePlan => {
    // No baseline at all: a miss is expected, a hit asserted, without a note on each (the baseline's case says how to create one).
    if (verdict === undefined) return { kind: missing ? 'expected-failure' : 'assert', notes: [] }
    switch (verdict.status) {
      case 'regressed':
        if (policy !== 'tolerance')
          return {
            kind: 'report-only',
            notes: [
              {
                type: 'warning',
                message: `lost: the baseline passed this question (not failed under gate policy ${policy}: the metrics' paired tests decide)`,
              },
            ],
          }
        return mode.gate
          ? { kind: 'assert', notes: [{ type: 'error', message: 'regression: the baseline passed this question' }] }
          : {
              kind: 'report-only',
              notes: [{ type: 'error', message: 'regression: the baseline passed this question (GATE=1 fails the run on it)' }],
            }
      case 'known-miss':
        // No note: the expected failure says it, and latest.md holds its evidence (EVAL_STRICT=1 fails it, evidence and all).
        return { kind: 'expected-failure', notes: [] }
      case 'improved':
        return {
          kind: 'assert',
          notes: [{ type: 'notice', message: `improvement: the baseline missed this question; ${UPDATE_HINT}` }],
        }
      case 'new':
        return missing
          ? {
              kind: 'expected-failure',
              notes: [{ type: 'warning', message: `new miss: the question is not in the baseline; ${UPDATE_HINT}` }],
            }
          : { kind: 'assert', notes: [{ type: 'notice', message: `new question, not in the baseline; ${UPDATE_HINT}` }] }
      case 'not-gated':
        return missing
          ? {
              kind: 'expected-failure',
              notes: [{ type: 'warning', message: `ungated miss: the baseline has no verdict on this question; ${UPDATE_HINT}` }],
            }
          : { kind: 'assert', notes: [] }
      case 'held':
        return { kind: 'assert', notes: [] }
      case 'system-error':
        // Not a miss: the system failed on it, so the case fails as an error (caseNote carries the error), never expected.
        return { kind: 'assert', notes: [] }
    }
  })()
  // EVAL_STRICT=1: every miss fails, with a note (a failing case must not fail silent in Vitest UI).
  if (!(mode.strict && missing)) return plan
  if (plan.kind !== 'expected-failure') return { ...plan, kind: 'assert' }
  const why =
    verdict?.status === 'known-miss'
      ? 'known miss: the baseline missed this question too (EVAL_STRICT=1 fails every miss)'
      : 'miss: EVAL_STRICT=1 fails every miss'
  return { kind: 'assert', notes: [...plan.notes, { type: 'warning', message: why }] }
}

/** A question asked in trials that did not pass them all: "passed 3 of 5 trials", and what varied when it is flaky. */
export function trialsNote(outcome: Pick<QuestionOutcome, 'trials'>): CaseNote | null {
  const trials = outcome.trials
  const decided = trials?.passed.filter((p) => p !== null) ?? []
  if (!trials || (trials.passHatK !== false && !trials.flaky)) return null
  const flaky = trials.flaky ? `; flaky: ${trials.varied.join(', ')} varied across trials` : ''
  return {
    type: trials.flaky ? 'warning' : 'notice',
    message: `passed ${decided.filter(Boolean).length} of ${decided.length} trials${flaky}`,
  }
}

const SEVERITY = { notice: 0, warning: 1, error: 2 } as const

/**
 * A question case's one annotation (error, notes, evidence on a miss), or null for a pass or a known miss:
 * each annotation costs round trips to Vitest's main process.
 */
export function caseNote(
  outcome: QuestionEvidence & Pick<QuestionOutcome, 'systemError'>,
  notes: readonly CaseNote[],
  passed: boolean | null,
): CaseNote | null {
  const all: CaseNote[] = [
    ...(outcome.systemError === null ? [] : [{ type: 'error' as const, message: `system error: ${outcome.systemError}` }]),
    ...notes,
  ]
  if (all.length === 0) return null
  const type = all.reduce<CaseNote['type']>(
    (worst, note) => (SEVERITY[note.type] > SEVERITY[worst] ? note.type : worst),
    'notice',
  )
  return {
    type,
    message: [...all.map((note) => note.message), ...(passed === false ? [describeEvidence(outcome)] : [])].join('\n\n'),
  }
}
