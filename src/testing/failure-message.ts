/** The message of the error `run` throws; a test fails when it throws nothing (the failure was the point). */
export function failureMessage(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected a failure')
}
