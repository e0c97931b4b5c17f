/**
 * Resamples of the bootstrap intervals and random permutation tests unless configured (bootstrapResamples):
 * at 2,000 the Monte Carlo error of a 95% percentile bound is well under a tenth of the interval's width.
 */
export const DEFAULT_RESAMPLES = 2000

/**
 * Seed of every resampling in the reports. Fixed so a report is byte-identical run to run; the same seed
 * for every metric also draws the same resampled questions for each (for equal n), so intervals of
 * different metrics describe the same resamples.
 */
export const STATISTICS_SEED = 1
