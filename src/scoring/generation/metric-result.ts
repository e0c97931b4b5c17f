/** A generation score: the value (never NaN: a zero denominator gives null), its status, and its counts. */
export interface MetricResult<Status extends string = string> {
  value: number | null
  status: Status
  numerator: number
  denominator: number
}

export function ratio<Status extends string>(
  numerator: number,
  denominator: number,
  status: Status,
  emptyStatus: Status,
): MetricResult<Status> {
  return denominator === 0
    ? { value: null, status: emptyStatus, numerator, denominator }
    : { value: numerator / denominator, status, numerator, denominator }
}
