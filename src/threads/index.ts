// The helper threads' API for run/, vitest/ and cli/: each starts a worker only when it pays and threads are on,
// else works on the caller's thread to the same bits (docs/scaling.md, "The helper threads in one place").
import type { PrefetchingJudge } from './offline-judge-thread.ts'

export type { PrefetchingJudge }
export { threadsEnabled, THREADS_VARIABLE } from './threads-switch.ts'
export { builtCorpusOnTwoThreads } from './corpus-index-thread.ts'
export { parallelMeanResampler } from './parallel-resamples.ts'
export { threadsStarted } from './own-module-thread.ts'
export { cacheThreadBundles } from './thread-bundle.ts'

/** The offline judge on a second thread for a large run, or null; imported on first use so a retrieval-tier run never loads it. */
export async function offlineJudgeOnThread(questions: number): Promise<PrefetchingJudge | null> {
  return (await import('./offline-judge-thread.ts')).offlineJudgeOnThread(questions)
}
