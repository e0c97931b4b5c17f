// The helper thread of parallel-resamples.ts: takes the job's free tasks until none is left, writing their
// replicates into the shared memory the job names, then ends.
import { parentPort } from 'node:worker_threads'
import { takeTasks, type ResampleJob } from './parallel-resamples.ts'

parentPort!.once('message', (job: ResampleJob) => {
  takeTasks(job)
  parentPort!.close()
})
