/** Above this many, a sort beats the insertion below. */
const SMALL_DEPTH = 256

/**
 * The `keep` best of the first `count` ids, by `score[id]` descending then `ordinal[id]`, as a full sort would keep
 * them: insertion into a short list for small depths (most ids fail one comparison), one sort for large ones.
 */
export function bestOf(
  ids: ArrayLike<number>,
  count: number,
  keep: number,
  score: ArrayLike<number>,
  ordinal: ArrayLike<number>,
): number[] {
  const before = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && ordinal[a]! < ordinal[b]!)
  if (keep > SMALL_DEPTH) {
    return Array.from({ length: count }, (_, i) => ids[i]!)
      .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
      .slice(0, keep)
  }
  const best: number[] = []
  // The worst kept id's score, once `keep` ids are kept: an id scoring below it is out at once.
  let floor = Number.NEGATIVE_INFINITY
  for (let i = 0; i < count && keep > 0; i++) {
    const id = ids[i]!
    if (best.length === keep && (score[id]! < floor || !before(id, best[keep - 1]!))) continue
    let at = best.length === keep ? keep - 1 : best.length
    while (at > 0 && before(id, best[at - 1]!)) {
      best[at] = best[at - 1]!
      at--
    }
    best[at] = id
    if (best.length === keep) floor = score[best[keep - 1]!]!
  }
  return best
}
