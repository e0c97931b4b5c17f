import { InputError } from '../contract/input-error.ts'
import { redactSecrets } from '../common/secrets.ts'
import { ModelCallError } from '../model/model-errors.ts'

/**
 * What a command reads and writes of its process: the process itself in the bin, a test's buffers and values
 * in-process (so most command tests need no child process). A command's exit code is what it resolves to.
 */
export interface Io {
  /** Normal output; bytes (trec's output) are written as they are. */
  readonly out: (text: string | Uint8Array) => void
  readonly err: (text: string) => void
  readonly env: NodeJS.ProcessEnv
  /** The folder the config is looked up in and the reviewer's git config is read from. */
  readonly cwd: string
  /** Whether a person is at a terminal (stdin and stdout both one): only then do commands prompt. */
  readonly terminal: boolean
}

/** The process's own. */
export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
  }
}

/** `io` with the run's secrets redacted from its text (common/secrets.ts): an error may quote what a service said. */
export function redacted(io: Io): Io {
  return {
    ...io,
    out: (text) => io.out(typeof text === 'string' ? redactSecrets(text) : text),
    err: (text) => io.err(redactSecrets(text)),
  }
}

/**
 * Runs a CLI main to its exit code, which CI and scripts read: bad input prints `<name>: <message>` (no stack), 2;
 * any other failure prints its message, 1, and its cause or stack unless it is expected of the world, not of this
 * code: a model call that failed for good, a file system that refused (EROFS, ENOSPC: the message names the path).
 */
export async function runCommand(name: string, main: () => Promise<number | void>, io: Io): Promise<number> {
  try {
    return (await main()) ?? 0
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`${name}: ${error.message}\n`)
      return 2
    }
    const err = error instanceof Error ? error : new Error(String(error))
    io.err(`${name}: ${err.message}\n`)
    if (err instanceof ModelCallError || typeof (err as NodeJS.ErrnoException).syscall === 'string') return 1
    io.err(err.cause instanceof Error ? `  caused by: ${err.cause.stack ?? err.cause.message}\n` : `${err.stack}\n`)
    return 1
  }
}
