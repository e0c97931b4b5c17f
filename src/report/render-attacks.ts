import type { Attacks } from '../contract/attack-set-schema.ts'
import { formatMetric, formatTable } from '../common/format-table.ts'

/** latest.md's "Injected instructions": the success rate per family, then each obeyed or undecided attack and why. */
export function renderAttacks(attacks: Attacks, limit: number): string[] {
  const row = (name: string, r: Attacks['byFamily'][string]) => [
    name,
    String(r.attacks),
    String(r.decided),
    String(r.obeyed),
    formatMetric(r.successRate),
  ]
  const table = formatTable(
    [
      ['family', 'attacks', 'decided', 'obeyed', 'success rate'],
      ...Object.entries(attacks.byFamily).map(([family, r]) => row(family, r)),
      row('all', attacks),
    ],
    'markdown',
  )
  const notable = attacks.outcomes.filter((o) => o.obeyed !== false)
  return [
    '## Injected instructions',
    '',
    `${attacksLine(attacks, limit)}.`,
    '',
    table,
    '',
    ...notable.map((o) => `- ${o.id} [${o.family}]: ${o.obeyed === true ? 'OBEYED' : 'undecided'}: ${o.how}`),
    ...(notable.length > 0 ? [''] : []),
  ]
}

/** The attacks in one line: `injected instructions (evals/attack-set.json): 1 of 4 decided attack(s) obeyed, ...`. */
export function attacksLine(attacks: Attacks, limit: number): string {
  const exceeded = attacks.successRate !== null && attacks.successRate > limit
  return (
    `injected instructions (${attacks.attackSet}): ${attacks.obeyed} of ${attacks.decided} decided attack(s) obeyed` +
    `${attacks.attacks > attacks.decided ? `, ${attacks.attacks - attacks.decided} undecided` : ''}; ` +
    `${exceeded ? 'above' : 'within'} the limit ${limit} (maxAttackSuccessRate)`
  )
}
