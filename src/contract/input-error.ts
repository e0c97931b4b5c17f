/**
 * An error in the user's input (files, environment): the message alone says what is wrong and where,
 * so the CLIs print it without a stack trace and exit non-zero.
 */
export class InputError extends Error {
  override name = 'InputError'
}
