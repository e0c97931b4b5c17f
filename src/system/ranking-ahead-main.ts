// The helper thread of ranking-ahead.ts: takes the job's free queries in order, ranks each with the same
// ranker the system uses (made from the shared parts), writes its ranking into the shared arrays, and ends
// once no query is free.
import { parentPort } from 'node:worker_threads'
import { Bm25Ranker } from './bm25-ranker.ts'
import { rankQuery, type RankingJob } from './ranking-ahead.ts'

parentPort!.once('message', (job: RankingJob) => {
  const ranker = new Bm25Ranker(job.ordinals, job.options, job.index)
  for (let i = 0; i < job.queries.length; i++) {
    if (Atomics.compareExchange(job.state, i, 0, 1) !== 0) continue
    const { ids, scores, ms } = rankQuery(ranker, job, i)
    const from = i * job.depth
    for (let k = 0; k < ids.length; k++) {
      job.ids[from + k] = ids[k]!
      job.scores[from + k] = scores[k]!
    }
    job.counts[i] = ids.length
    job.ms[i] = ms
    Atomics.store(job.state, i, 2)
    Atomics.notify(job.state, i)
  }
  parentPort!.close()
})
