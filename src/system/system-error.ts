/**
 * A failure of the system under test for one question: the runner records it and goes on; the message alone
 * says which question, which system and what went wrong.
 */
export class SystemError extends Error {
  override name = 'SystemError'
  readonly questionId: string

  constructor(questionId: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.questionId = questionId
  }
}
