import { checkLevel, DEFAULT_LEVEL } from './interval.ts'
import { normalQuantile } from './normal-quantile.ts'

/** One question of the population: the judge's score, its stratum, and a person's value when it was labelled. */
export interface PredictionPoweredItem {
  stratum: string
  /** The judge's score f(x): known for every question. */
  judge: number
  /** The person's value y: known on the labelled questions only. */
  human: number | null
}

export interface PredictionPoweredMean {
  /** mean over all N of f: the judge's own mean. */
  judgeMean: number
  /** The prediction-powered estimate of the mean of y: sum over strata of w_h (mean_N_h f - mean_n_h (f - y)). */
  estimate: number
  low: number
  high: number
  /** The judge's mean error on the labelled questions, stratum-weighted: judgeMean - estimate. */
  rectifier: number
  /** Questions N and labelled questions n. */
  questions: number
  labelled: number
  /** The strata actually used, after pooling those with fewer than 2 labels. */
  strata: { stratum: string; questions: number; labelled: number }[]
}

/** Unbiased sample variance (n - 1 in the denominator); 0 for a single value. */
function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) return 0
  const mean = values.reduce((s, v) => s + v, 0) / values.length
  return values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)
}

/** Sample covariance (n - 1 in the denominator) of paired values; 0 for a single pair. */
function sampleCovariance(pairs: readonly (readonly [number, number])[]): number {
  if (pairs.length < 2) return 0
  const meanA = pairs.reduce((s, [a]) => s + a, 0) / pairs.length
  const meanB = pairs.reduce((s, [, b]) => s + b, 0) / pairs.length
  return pairs.reduce((s, [a, b]) => s + (a - meanA) * (b - meanB), 0) / (pairs.length - 1)
}

/**
 * Strata with fewer than 2 labels (no variance of f - y) pool into one; a pool still under 2 joins the largest
 * stratum.
 */
function poolStrata(items: readonly PredictionPoweredItem[]): Map<string, PredictionPoweredItem[]> {
  const strata = new Map<string, PredictionPoweredItem[]>()
  for (const item of items) {
    const members = strata.get(item.stratum)
    if (members) members.push(item)
    else strata.set(item.stratum, [item])
  }
  const labelled = (members: readonly PredictionPoweredItem[]) => members.filter((m) => m.human !== null).length
  const small = [...strata.keys()].filter((key) => labelled(strata.get(key)!) < 2).sort()
  if (small.length === 0) return strata
  const pooled = small.flatMap((key) => strata.get(key)!)
  for (const key of small) strata.delete(key)
  const poolKey = small.join('+')
  if (labelled(pooled) >= 2 || strata.size === 0) strata.set(poolKey, pooled)
  else {
    const [largest] = [...strata.entries()].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))[0]!
    strata.set(`${largest}+${poolKey}`, [...strata.get(largest)!, ...pooled])
    strata.delete(largest)
  }
  return strata
}

/**
 * Prediction-powered mean (Angelopoulos et al. 2023): the judge scores N questions, people label n. Per stratum
 * h (w_h = N_h / N): theta_h = mean_{N_h} f - mean_{n_h} (f - y); estimate sum_h w_h theta_h, variance
 * sum_h w_h^2 (var_{N_h}(f) / N_h + v_h / n_h - 2 cov_{n_h}(f, f - y) / N_h) (the covariance since the labelled are
 * among the N; docs/judging.md), v_h = max(var_{n_h}(f - y), var_n(f - y)) (docs/statistics.md). null with fewer than
 * 2 labels.
 */
export function predictionPoweredMean(
  items: readonly PredictionPoweredItem[],
  level = DEFAULT_LEVEL,
): PredictionPoweredMean | null {
  checkLevel(level)
  for (const item of items) {
    if (!Number.isFinite(item.judge) || (item.human !== null && !Number.isFinite(item.human)))
      throw new RangeError(`predictionPoweredMean: expected finite scores, got judge ${item.judge}, human ${item.human}`)
  }
  const labelledCount = items.filter((item) => item.human !== null).length
  if (labelledCount < 2) return null
  const total = items.length
  let estimate = 0
  let judgeMean = 0
  let variance = 0
  const strata: PredictionPoweredMean['strata'] = []
  // A stratum's 3 or 4 labels often agree, which estimates its error variance as 0: every stratum's is taken as at
  // least that of all labels together (which includes the spread between strata, so errs wide).
  const overallErrorVariance = sampleVariance(items.filter((m) => m.human !== null).map((m) => m.judge - m.human!))
  for (const [stratum, members] of [...poolStrata(items).entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const weight = members.length / total
    const scores = members.map((m) => m.judge)
    const labelled = members.filter((m) => m.human !== null).map((m) => [m.judge, m.judge - m.human!] as const)
    const errors = labelled.map(([, error]) => error)
    const meanScore = scores.reduce((s, v) => s + v, 0) / scores.length
    const meanError = errors.reduce((s, v) => s + v, 0) / errors.length
    judgeMean += weight * meanScore
    estimate += weight * (meanScore - meanError)
    // The labelled questions are among the N, so the two means share terms: - 2 cov(f, f - y) / N_h.
    const stratumVariance =
      sampleVariance(scores) / scores.length +
      Math.max(sampleVariance(errors), overallErrorVariance) / errors.length -
      (2 * sampleCovariance(labelled)) / scores.length
    variance += weight ** 2 * Math.max(0, stratumVariance)
    strata.push({ stratum, questions: members.length, labelled: errors.length })
  }
  const half = normalQuantile(1 - (1 - level) / 2) * Math.sqrt(variance)
  return {
    judgeMean,
    estimate,
    low: estimate - half,
    high: estimate + half,
    rectifier: judgeMean - estimate,
    questions: total,
    labelled: labelledCount,
    strata,
  }
}
