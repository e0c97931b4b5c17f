/**
 * A failure of the system under test for one question (the service answered an error, broke the
 * contract, timed out after its retries): the runner records it against the question and goes on with
 * the others, and the message alone says which question, which system and what went wrong.
 */
export class SystemError extends Error {
  override name = 'SystemError'
  readonly questionId: string

  constructor(questionId: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.questionId = questionId
  }
}
