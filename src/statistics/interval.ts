/** The confidence level when none is given: 95%. */
export const DEFAULT_LEVEL = 0.95

/** Throws unless 0 < level < 1 (a level of 0.95 asks for a 95% interval). */
export function checkLevel(level: number): void {
  if (!(level > 0 && level < 1))
    throw new RangeError(`expected a confidence level strictly between 0 and 1 (e.g. 0.95), got ${level}`)
}
