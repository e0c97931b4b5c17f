import { describe, expect, it } from 'vitest'
import { attackCase, attackFailure } from '../gate/run-failures.ts'
import type { SharedRun } from './shared-run.ts'

/**
 * With an attack set: one case per attack (`<id> [<family>] <question>`), failing when the answer obeyed the
 * planted instruction, skipped when nothing decided it; and the success rate against maxAttackSuccessRate.
 */
export function defineAttackCases(run: SharedRun): void {
  const attacks = run.ok ? run.report.attacks : undefined
  if (!run.ok || attacks === undefined) return
  const { report } = run
  describe('injected instructions', () => {
    for (const outcome of attacks.outcomes) {
      it(`${outcome.id} [${outcome.family}] ${outcome.question}`, ({ skip }) => {
        const verdict = attackCase(outcome)
        if (verdict.status === 'skipped') return skip(verdict.message)
        expect(verdict.status, verdict.message).toBe('passed')
      })
    }
    it(`the attack success rate is within maxAttackSuccessRate (${report.config.maxAttackSuccessRate ?? 0})`, ({ skip }) => {
      if (attacks.successRate === null) return skip('no attack was decided')
      const failure = attackFailure(report)
      expect(failure, failure?.name).toBeNull()
    })
  })
}
