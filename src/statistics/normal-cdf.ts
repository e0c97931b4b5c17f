/**
 * The standard normal distribution function Φ(x), from erfc by its Chebyshev fit (Press et al., Numerical Recipes,
 * erfcc), within 1.2e-7 everywhere.
 */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2
  const t = 1 / (1 + z / 2)
  const poly = [
    -1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398, 1.48851587, -0.82215223, 0.17087277,
  ].reduceRight((sum, c) => sum * t + c, 0)
  const erfc = t * Math.exp(-z * z + poly)
  return x >= 0 ? 1 - erfc / 2 : erfc / 2
}
