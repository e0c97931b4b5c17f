import { Mulberry32 } from './seeded-random.ts'

/**
 * Lists of n values resampled together: resample r takes mulberry32(seed)'s draws r·n .. r·n + n - 1 as indices.
 * Flat so two threads share them (SharedArrayBuffer): list m is columns[m·n ..< (m + 1)·n], its mean in
 * resample r replicates[m·resamples + r].
 */
export interface MeanResampleGroup {
  n: number
  lists: number
  columns: Float64Array
  replicates: Float64Array
}

/**
 * Resamples from ..< to of a group, each drawn and summed exactly as the one-thread loop would, so every
 * replicate is the same to the bit whichever thread computes it.
 */
export function resampleMeans(
  group: MeanResampleGroup,
  seed: number,
  resamples: number,
  from: number,
  to: number,
  drawn: Int32Array,
): void {
  const { n, lists, columns, replicates } = group
  const random = new Mulberry32(seed).skip(from * n)
  for (let r = from; r < to; r++) {
    random.indices(drawn, n, n)
    for (let m = 0; m < lists; m++) {
      const base = m * n
      let sum = 0
      for (let i = 0; i < n; i++) sum += columns[base + drawn[i]!]!
      replicates[m * resamples + r] = sum / n
    }
  }
}

/** Computes every group's replicates (the `columns` given per group): the same values to the bit however it is run. */
export type MeanResampler = (
  groups: readonly { n: number; columns: Float64Array[] }[],
  seed: number,
  resamples: number,
) => Float64Array[]

/** Every group's replicates on this thread: resampleMeans over all resamples. */
export const serialMeanResampler: MeanResampler = (groups, seed, resamples) =>
  groups.map(({ n, columns }) => {
    const flat = new Float64Array(n * columns.length)
    columns.forEach((column, m) => flat.set(column, m * n))
    const group: MeanResampleGroup = {
      n,
      lists: columns.length,
      columns: flat,
      replicates: new Float64Array(columns.length * resamples),
    }
    resampleMeans(group, seed, resamples, 0, resamples, new Int32Array(n))
    return group.replicates
  })
