/** An error in the user's input: its message says what and where, so the CLIs print it without a stack trace. */
export class InputError extends Error {
  override name = 'InputError'
}
