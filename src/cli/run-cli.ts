import { InputError } from '../contract/input-error.ts'
import { redactSecrets } from '../common/secrets.ts'

/** Where a command's own messages go: the process's streams, or a test's buffers. */
export interface Io {
  readonly out: (text: string) => void
  readonly err: (text: string) => void
}

/** The process's streams, the run's secrets redacted (common/secrets.ts): an error may quote what a service said. */
export const processIo: Io = {
  out: (text) => process.stdout.write(redactSecrets(text)),
  err: (text) => process.stderr.write(redactSecrets(text)),
}

/**
 * Runs a CLI's main function and resolves to its exit code: bad input prints `<name>: <message>` alone
 * (no stack) and is 2; any other failure prints its message and cause and is 1. Exit codes are what CI
 * and scripts read.
 */
export async function runCommand(name: string, main: () => Promise<number | void>, io: Io = processIo): Promise<number> {
  try {
    return (await main()) ?? 0
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`${name}: ${error.message}\n`)
      return 2
    }
    const err = error instanceof Error ? error : new Error(String(error))
    io.err(`${name}: ${err.message}\n`)
    io.err(err.cause instanceof Error ? `  caused by: ${err.cause.stack ?? err.cause.message}\n` : `${err.stack}\n`)
    return 1
  }
}
