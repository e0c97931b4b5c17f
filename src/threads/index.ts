// The helper threads, behind one small API: what run/ (and vitest/, cli/) may use of threads/.
// Each helper starts a worker thread only when it pays (a large corpus, run or resampling, a second core)
// and when threads are on (RAG_EVAL_THREADS, threadsEnabled); otherwise its work is done on the caller's
// thread, with the same results to the bit. builtin/, judge/ and statistics/ import nothing from here:
// run/ chooses the threaded way and hands it down (a resampler, a built corpus, a judge).
import type { PrefetchingJudge } from './offline-judge-thread.ts'

export type { PrefetchingJudge }
export { threadsEnabled, THREADS_VARIABLE } from './threads-switch.ts'
export { builtCorpusOnTwoThreads } from './corpus-index-thread.ts'
export { parallelMeanResampler } from './parallel-resamples.ts'
export { threadsStarted } from './own-module-thread.ts'
export { cacheThreadBundles } from './thread-bundle.ts'

/**
 * The offline judge on a second thread for a large run (offline-judge-thread.ts), or null; imported on
 * first use, so a retrieval-tier run never loads the judge.
 */
export async function offlineJudgeOnThread(questions: number): Promise<PrefetchingJudge | null> {
  return (await import('./offline-judge-thread.ts')).offlineJudgeOnThread(questions)
}
