import { InputError } from '../load/input-error.ts'

/**
 * Runs a CLI's main function: bad input prints its message alone (no stack) and exits 2; any other
 * failure prints its message and cause and exits 1. Exit codes are what CI and scripts read.
 */
export function runCli(name: string, main: () => Promise<number | void>): void {
  main().then(
    (code) => {
      process.exitCode = code ?? 0
    },
    (error: unknown) => {
      if (error instanceof InputError) {
        console.error(`${name}: ${error.message}`)
        process.exitCode = 2
        return
      }
      const err = error instanceof Error ? error : new Error(String(error))
      console.error(`${name}: ${err.message}`)
      if (err.cause instanceof Error) console.error(`  caused by: ${err.cause.stack ?? err.cause.message}`)
      else console.error(err.stack)
      process.exitCode = 1
    },
  )
}
