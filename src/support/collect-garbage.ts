import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gc: (() => void) | undefined

/**
 * A full garbage collection, now. After a large evaluation (10,000 questions) most of the heap is
 * garbage that V8, far from its limit, would keep until the Vitest run ends: collected here, the main
 * process's peak memory is what the run retains (70 MB) plus what comes next (writing the reports,
 * Vitest's 10,000 test results), not their sum. Node exposes gc() only behind --expose-gc, a flag the
 * user's `vitest` process was not started with: it is set at run time and gc() taken from a new context.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  gc()
}

/**
 * collectGarbage when the heap holds at least `megabytes` (a full collection of a small heap is time
 * for nothing): after a large corpus is chunked and indexed, the chunking's garbage would otherwise sit in
 * the old generation through the questions, and the run's peak would be its sum with theirs (10,000
 * documents: 600 -> 550 MB).
 */
export function collectGarbageAbove(megabytes: number): void {
  if (getHeapStatistics().used_heap_size >= megabytes * 1024 * 1024) collectGarbage()
}
