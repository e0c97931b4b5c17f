import type { QuestionOutcome } from '../contract/report-schema.ts'
import { mulberry32 } from '../statistics/seeded-random.ts'

/** The stratum of a question: its type, whether it hit (or refused, for none), and the judge's verdict. */
export function stratumOf(outcome: QuestionOutcome): string {
  const retrieval = outcome.type === 'none' ? (outcome.refused ? 'refused' : 'answered') : outcome.hit ? 'hit' : 'miss'
  const judge = (outcome.unsupportedClaims?.length ?? 0) > 0 ? 'judge-low' : 'judge-high'
  return `${outcome.type}/${retrieval}/${judge}`
}

export interface Sample {
  ids: string[]
  /** Why these: the strata with their sizes and picks, for the record. */
  explanation: string[]
}

/**
 * Draws a stratified sample of answered questions: strata by type x hit/miss x judge high/low
 * (stratumOf); the strata are visited round-robin, smallest first, each shuffled with the seed, so every
 * type and both sides of each split are represented before any stratum gets a second pick.
 */
export function stratifiedSample(outcomes: readonly QuestionOutcome[], size: number, seed: number): Sample {
  const random = mulberry32(seed)
  const strata = new Map<string, QuestionOutcome[]>()
  for (const outcome of outcomes) {
    if (outcome.answer === null) continue
    const key = stratumOf(outcome)
    strata.set(key, [...(strata.get(key) ?? []), outcome])
  }
  const queues = [...strata.entries()]
    .sort(([a, x], [b, y]) => x.length - y.length || (a < b ? -1 : 1))
    .map(([key, members]) => {
      const shuffled = [...members]
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1))
        ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
      }
      return { key, size: members.length, queue: shuffled, picked: [] as string[] }
    })
  const ids: string[] = []
  while (ids.length < size && queues.some((q) => q.queue.length > 0)) {
    for (const stratum of queues) {
      const next = stratum.queue.shift()
      if (next === undefined || ids.length >= size) continue
      ids.push(next.id)
      stratum.picked.push(next.id)
    }
  }
  const explanation = [
    `seed ${seed}, ${ids.length} of ${[...strata.values()].reduce((n, m) => n + m.length, 0)} answered ` +
      `questions, strata type/retrieval/judge visited round-robin, smallest first:`,
    ...queues.map((s) => `  ${s.key}: ${s.size} question(s), picked ${s.picked.join(', ') || 'none'}`),
  ]
  return { ids, explanation }
}
