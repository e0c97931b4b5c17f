import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gc: (() => void) | undefined

/**
 * A full collection from `megabytes` up: V8, far from its limit, would keep a large evaluation's garbage (docs/scaling.md).
 * The user's `vitest` lacks --expose-gc, so the flag is set at run time and gc() taken from a new context.
 */
export function collectGarbageAbove(megabytes: number): void {
  if (getHeapStatistics().used_heap_size < megabytes * 1024 * 1024) return
  if (!gc) {
    setFlagsFromString('--expose-gc')
    gc = runInNewContext('gc') as () => void
  }
  gc()
}
