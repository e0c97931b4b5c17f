import type { QuestionOutcome } from '../contract/report-schema.ts'
import { mulberry32 } from '../statistics/seeded-random.ts'

/**
 * A question's stratum: type, hit, and the judge's refusal and faithfulness verdicts, so the refusals and
 * unsupported answers where judge and people part are in every sample.
 */
export function stratumOf(outcome: QuestionOutcome): string {
  const refusal = outcome.refused ? 'refused' : 'answered'
  const retrieval = outcome.type === 'none' ? refusal : `${outcome.hit ? 'hit' : 'miss'}/${refusal}`
  const judge = (outcome.unsupportedClaims?.length ?? 0) > 0 ? 'judge-low' : 'judge-high'
  return `${outcome.type}/${retrieval}/${judge}`
}

export interface Sample {
  ids: string[]
  /** Why these: the strata with their sizes and picks, for the record. */
  explanation: string[]
}

/**
 * A stratified sample of answered questions: strata (stratumOf) visited round-robin, smallest first, each
 * shuffled with the seed, so each is represented before any gets a second pick. `keep`: questions already
 * labelled count as their strata's first picks, so a sample grows without relabelling or skewing.
 */
export function stratifiedSample(
  outcomes: readonly QuestionOutcome[],
  size: number,
  seed: number,
  keep: readonly string[] = [],
): Sample {
  const random = mulberry32(seed)
  const strata = new Map<string, QuestionOutcome[]>()
  for (const outcome of outcomes) {
    if (outcome.answer === null) continue
    const key = stratumOf(outcome)
    strata.set(key, [...(strata.get(key) ?? []), outcome])
  }
  const kept = new Set(keep)
  const queues = [...strata.entries()]
    .sort(([a, x], [b, y]) => x.length - y.length || (a < b ? -1 : 1))
    .map(([key, members]) => {
      const shuffled = [...members]
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
      }
      const picked = shuffled.filter((o) => kept.has(o.id)).map((o) => o.id)
      return { key, size: members.length, queue: shuffled.filter((o) => !kept.has(o.id)), picked }
    })
  const ids = queues.flatMap((q) => q.picked)
  // Round-robin, smallest first: the next pick goes to the stratum with the fewest picks that has members left.
  while (ids.length < size) {
    const open = queues.filter((q) => q.queue.length > 0)
    if (open.length === 0) break
    const fewest = Math.min(...open.map((q) => q.picked.length))
    const stratum = open.find((q) => q.picked.length === fewest)!
    const next = stratum.queue.shift()!
    ids.push(next.id)
    stratum.picked.push(next.id)
  }
  const explanation = [
    `seed ${seed}, ${ids.length} of ${[...strata.values()].reduce((n, m) => n + m.length, 0)} answered questions${kept.size > 0 ? ` (${kept.size} kept)` : ''}, strata type/retrieval/refusal/judge visited round-robin, smallest first:`,
    ...queues.map((s) => `  ${s.key}: ${s.size} question(s), picked ${s.picked.join(', ') || 'none'}`),
  ]
  return { ids, explanation }
}
