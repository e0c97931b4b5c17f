/** Above this many, a sort beats the insertion below. */
const SMALL_DEPTH = 256

/**
 * The `keep` best of the first `count` ids of `ids`, best first, where `before(a, b)` says a ranks above b
 * (a retriever's score, then corpus position): insertion into a short list for the usual small depths,
 * one sort for large ones. The same ids a full sort would keep, without sorting every match.
 */
export function bestOf(ids: ArrayLike<number>, count: number, keep: number, before: (a: number, b: number) => boolean): number[] {
  if (keep > SMALL_DEPTH) {
    return Array.from({ length: count }, (_, i) => ids[i]!)
      .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
      .slice(0, keep)
  }
  const best: number[] = []
  for (let i = 0; i < count && keep > 0; i++) {
    const id = ids[i]!
    if (best.length === keep && !before(id, best[keep - 1]!)) continue
    let at = best.length === keep ? keep - 1 : best.length
    while (at > 0 && before(id, best[at - 1]!)) {
      best[at] = best[at - 1]!
      at--
    }
    best[at] = id
  }
  return best
}
