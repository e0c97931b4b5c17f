/** b[i] - a[i] for each pair; throws when the lists differ in length (the items would not be paired). */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) {
    throw new RangeError(`paired values: expected one value per item in both lists, got ${a.length} and ${b.length}`)
  }
  return a.map((value, i) => b[i]! - value)
}
