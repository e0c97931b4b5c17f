export interface FusedItem<T> {
  id: string
  /** Reciprocal rank fusion score: the sum over rankings of 1 / (k + rank), ranks from 1. */
  score: number
  /** The item as the first ranking that has it gave it. */
  item: T
}

/**
 * Reciprocal rank fusion (Cormack et al. 2009): an item at rank r of a ranking earns 1 / (k + r), k >= 0 (60 by
 * default), summed over the rankings that have it; a repeated id counts at its best rank. Ties keep the order items
 * are first met reading the rankings rank by rank.
 */
export function fuse<T extends { id: string }>(
  rankings: readonly (readonly T[])[],
  options: { k?: number } = {},
): FusedItem<T>[] {
  const k = options.k ?? 60
  if (!(k >= 0 && Number.isFinite(k))) throw new RangeError(`fuse: expected k >= 0, got ${k}`)
  const fused = new Map<string, FusedItem<T>>()
  const longest = Math.max(0, ...rankings.map((ranking) => ranking.length))
  const seen = rankings.map(() => new Set<string>())
  for (let rank = 1; rank <= longest; rank++) {
    rankings.forEach((ranking, r) => {
      const item = ranking[rank - 1]
      if (item === undefined || seen[r]!.has(item.id)) return
      seen[r]!.add(item.id)
      const entry = fused.get(item.id)
      if (entry) entry.score += 1 / (k + rank)
      else fused.set(item.id, { id: item.id, score: 1 / (k + rank), item })
    })
  }
  // Array.prototype.sort is stable, so equal scores keep the order of first meeting.
  return [...fused.values()].sort((a, b) => b.score - a.score)
}
