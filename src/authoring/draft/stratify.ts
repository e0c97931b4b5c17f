import { dirname } from 'node:path'
import { Mulberry32 } from '../../statistics/seeded-random.ts'
import type { CorpusDocument } from '../../load/corpus.ts'

/** A seeded Fisher-Yates shuffle (a copy): the same seed orders the same items the same way on every machine. */
export function shuffled<T>(items: readonly T[], random: Mulberry32): T[] {
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

/** A document's size class among the corpus's: 0 short, 1 medium, 2 long (terciles of body length). */
function sizeClasses(docs: readonly CorpusDocument[]): Map<string, number> {
  const lengths = docs.map((d) => d.body.length).sort((a, b) => a - b)
  const cut = (q: number) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))] ?? 0
  const [low, high] = [cut(1 / 3), cut(2 / 3)]
  return new Map(docs.map((d) => [d.id, d.body.length < low ? 0 : d.body.length < high ? 1 : 2]))
}

/**
 * Documents in drafting order, stratified over folders and size classes with the seed, so every document comes once
 * before any twice (uniform sampling skews towards a few files: docs/golden-set.md, 'How the drafts are planned').
 */
export function stratifiedOrder(docs: readonly CorpusDocument[], seed: number): CorpusDocument[] {
  const random = new Mulberry32(seed)
  const size = sizeClasses(docs)
  const strata = new Map<string, CorpusDocument[]>()
  for (const doc of [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const key = `${dirname(doc.file)}\u0000${size.get(doc.id)}`
    ;(strata.get(key) ?? strata.set(key, []).get(key)!).push(doc)
  }
  const queues = shuffled(
    [...strata.keys()].sort().map((key) => shuffled(strata.get(key)!, random)),
    random,
  )
  const order: CorpusDocument[] = []
  while (order.length < docs.length)
    for (const queue of queues) {
      const next = queue.shift()
      if (next) order.push(next)
    }
  return order
}
