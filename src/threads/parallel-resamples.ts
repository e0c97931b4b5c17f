import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { ownModuleThread } from './own-module-thread.ts'
import { threadsEnabled } from './threads-switch.ts'
import { resampleMeans, type MeanResampleGroup, type MeanResampler } from '../statistics/mean-resamples.ts'

/** Resamples per task: small enough that the last task a thread is in the middle of costs little to redo. */
const TASK_RESAMPLES = 16

/** Draws and additions below which a second thread's start costs more than it saves (about a tenth of a second of work). */
const MIN_WORK = 30_000_000

/**
 * The shared state of one resampling job: its groups over shared memory, and one state per task (group g's
 * resamples from TASK_RESAMPLES x k): 0 free, 1 taken, 2 done.
 */
export interface ResampleJob {
  seed: number
  resamples: number
  groups: MeanResampleGroup[]
  /** Per group, its first task's number. */
  firstTask: number[]
  tasks: Int32Array
}

const THREAD = fileURLToPath(new URL(`./resample-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))

const tasksOf = (resamples: number) => Math.ceil(resamples / TASK_RESAMPLES)

/** Does task `task` (group g, its k-th block of resamples); `drawn` is scratch of at least n entries. */
function runTask(job: ResampleJob, task: number, drawn: Int32Array): void {
  let g = job.groups.length - 1
  while (job.firstTask[g]! > task) g--
  const from = (task - job.firstTask[g]!) * TASK_RESAMPLES
  resampleMeans(job.groups[g]!, job.seed, job.resamples, from, Math.min(from + TASK_RESAMPLES, job.resamples), drawn)
}

/** Scratch for runTask: room for the largest group's draws. */
const scratchOf = (job: ResampleJob) => new Int32Array(Math.max(...job.groups.map((group) => group.n)))

/** Takes free tasks in order and does them until none is free: what both threads run. */
export function takeTasks(job: ResampleJob, drawn: Int32Array = scratchOf(job)): void {
  for (let task = 0; task < job.tasks.length; task++) {
    if (Atomics.compareExchange(job.tasks, task, 0, 1) !== 0) continue
    runTask(job, task, drawn)
    Atomics.store(job.tasks, task, 2)
  }
}

/**
 * Every group's replicates, a second thread helping when it pays; both take tasks as they go. This thread never
 * waits: it redoes the task the helper is still on, to the same bits (docs/scaling.md, "The summary's and the gate's bootstrap").
 */
export const parallelMeanResampler: MeanResampler = (groups, seed, resamples) => {
  if (groups.length === 0) return []
  const work = groups.reduce((sum, group) => sum + resamples * group.n * (group.columns.length + 1), 0)
  const parallel = work >= MIN_WORK && availableParallelism() >= 2 && threadsEnabled()
  const memory = (bytes: number) => (parallel ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes))
  const shared: MeanResampleGroup[] = groups.map(({ n, columns }) => {
    const flat = new Float64Array(memory(n * columns.length * 8))
    columns.forEach((column, m) => flat.set(column, m * n))
    return { n, lists: columns.length, columns: flat, replicates: new Float64Array(memory(columns.length * resamples * 8)) }
  })
  const firstTask = shared.map((_, g) => g * tasksOf(resamples))
  const job: ResampleJob = {
    seed,
    resamples,
    groups: shared,
    firstTask,
    tasks: new Int32Array(memory(groups.length * tasksOf(resamples) * 4)),
  }
  // A small young generation: the helper makes little garbage, and its memory adds to the run's peak.
  const helper = parallel ? ownModuleThread(THREAD, { resourceLimits: { maxYoungGenerationSizeMb: 4 } }) : null
  // A helper that fails (to load, say) leaves its tasks to this thread, which does every task not done.
  helper?.on('error', () => {})
  helper?.postMessage(job)
  const drawn = scratchOf(job)
  takeTasks(job, drawn)
  if (helper) {
    for (let task = 0; task < job.tasks.length; task++) if (Atomics.load(job.tasks, task) !== 2) runTask(job, task, drawn)
    void helper.terminate()
  }
  // Copies: the helper may still write its last task's (identical) values into the shared ones.
  return shared.map((group) => group.replicates.slice())
}
