import { InputError } from '../contract/input-error.ts'

/** The environment variable that switches the helper threads off: `RAG_EVAL_THREADS=0`. */
export const THREADS_VARIABLE = 'RAG_EVAL_THREADS'

/** Whether helper threads may start: yes unless RAG_EVAL_THREADS is 0 (the same reports on one thread). Read when asked, so tests can switch it. */
export function threadsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[THREADS_VARIABLE]
  if (value === undefined || value === '' || value === '1') return true
  if (value === '0') return false
  throw new InputError(
    `${THREADS_VARIABLE} must be 0 (one thread) or 1 (helper threads, the default), got ${JSON.stringify(value)}`,
  )
}
