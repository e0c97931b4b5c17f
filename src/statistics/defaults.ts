/** Default bootstrapResamples: the Monte Carlo error of a 95% bound is then under a tenth of the interval's width. */
export const DEFAULT_RESAMPLES = 2000

/**
 * Fixed, so reports are byte-identical run to run; one seed for every metric draws the same resampled questions
 * for each (equal n), so their intervals describe the same resamples.
 */
export const STATISTICS_SEED = 1
