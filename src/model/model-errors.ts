// The model client's errors (model-client.ts re-exports them): importing them loads nothing else.

/** A model call that failed for good: names the question, the call, the attempts and each failure. */
export class ModelCallError extends Error {
  override name = 'ModelCallError'
  constructor(
    message: string,
    readonly subject: string,
    readonly attempts: number,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** A batch item refused in a way a normal call would repeat: a judge error for that metric, so one item does not lose the run. */
export class BatchItemError extends Error {
  override name = 'BatchItemError'
}

/** The run was told to stop (stopAndDrain: SIGTERM, the parent gone, an abort): the reason, e.g. "stopped by SIGTERM". */
export class RunStoppedError extends Error {
  override name = 'RunStoppedError'
}

/** Replay met a request the recording does not hold (never a silent fallback to anything else). */
export class ReplayMissError extends Error {
  override name = 'ReplayMissError'
}
