const NUMBERED = /^q-(\d+)$/

function format(n: number): string {
  return `q-${String(n).padStart(3, '0')}`
}

/** The next free q-NNN id: past the highest in use, never a deleted question's gap (baselines may still name it). */
export function nextQuestionId(ids: Iterable<string>): string {
  let highest = 0
  for (const id of ids) {
    const match = NUMBERED.exec(id)
    if (match) highest = Math.max(highest, Number(match[1]))
  }
  return format(highest + 1)
}

/** Ids for imported records: a record's own, else q-001, q-002... in order, skipping numbers the own ids use. */
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
