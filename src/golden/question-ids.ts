const NUMBERED = /^q-(\d+)$/

function format(n: number): string {
  return `q-${String(n).padStart(3, '0')}`
}

/**
 * The next free id of the q-NNN series: one past the highest number in use (never a gap left by a
 * deleted question, whose id baselines and reports may still name), at least three digits.
 */
export function nextQuestionId(ids: Iterable<string>): string {
  let highest = 0
  for (const id of ids) {
    const match = NUMBERED.exec(id)
    if (match) highest = Math.max(highest, Number(match[1]))
  }
  return format(highest + 1)
}

/**
 * Ids for imported records: a record's own id where it has one, else q-001, q-002... in record order,
 * skipping the numbers other records' own ids already use.
 */
export function assignQuestionIds(ownIds: readonly (string | undefined)[]): string[] {
  const used = new Set(ownIds.filter((id): id is string => id !== undefined))
  let next = 1
  return ownIds.map((id) => {
    if (id !== undefined) return id
    while (used.has(format(next))) next++
    const assigned = format(next)
    used.add(assigned)
    return assigned
  })
}
