import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gc: (() => void) | undefined

/**
 * A full garbage collection, now, when the heap holds at least `megabytes` (a full collection of a small
 * heap is time for nothing). After a large evaluation (10,000 questions), or a large corpus chunked and
 * indexed, most of the heap is garbage that V8, far from its limit, would keep: collected, the process's
 * peak memory is what the run retains plus what comes next (the questions; writing the reports and
 * Vitest's test results), not their sum (docs/scaling.md). Node
 * exposes gc() only behind --expose-gc, a flag the user's `vitest` process was not started with: it is
 * set at run time and gc() taken from a new context.
 */
export function collectGarbageAbove(megabytes: number): void {
  if (getHeapStatistics().used_heap_size < megabytes * 1024 * 1024) return
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  gc()
}
