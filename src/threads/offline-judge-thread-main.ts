// The worker thread of offline-judge-thread.ts: judges the answers it is sent with the offline judge, in
// batches, and answers each batch with the verdicts and the time each took.
import { parentPort } from 'node:worker_threads'
import type { JudgeThreadReply, JudgeThreadRequest } from './offline-judge-thread.ts'
import { offlineJudge } from '../judge/offline-judge.ts'

const port = parentPort!
port.on('message', (request: JudgeThreadRequest) => {
  void (async () => {
    const reply: JudgeThreadReply = []
    for (const { key, input } of request) {
      const started = performance.now()
      const judgement = await offlineJudge.judge(input)
      reply.push({ key, judgement: { ...judgement, judgeMs: performance.now() - started } })
    }
    port.postMessage(reply)
  })()
})
