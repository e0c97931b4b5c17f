import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { ownModuleThread } from './own-module-thread.ts'
import { threadsEnabled } from './threads-switch.ts'
import type { Judge, Judgement, JudgeInput } from '../judge/judge.ts'
import { offlineJudge } from '../judge/offline-judge.ts'

/** What offline-judge-thread-main.ts is sent: answers to judge, each under its key. */
export type JudgeThreadRequest = { key: string; input: JudgeInput }[]
/** What it answers per batch: each answer's verdicts, with the time the judging took there. */
export type JudgeThreadReply = { key: string; judgement: Judgement }[]

/** Questions from which judging beside the answering pays for the thread's start (about a tenth of a second). */
const MIN_QUESTIONS = 2000
/** Answers per message: few enough to keep the thread busy from the start, enough to make messages rare. */
const BATCH = 64

const THREAD = fileURLToPath(
  new URL(`./offline-judge-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
)

/** The offline judge, handed each answer as soon as the system gives it: what judgeAnswers asks for later is judged by then. */
export interface PrefetchingJudge extends Judge {
  /** Starts judging an answer on the thread. */
  prefetch(input: JudgeInput): void
  /** Stops the thread (the verdicts it still owes are made here). */
  close(): Promise<void>
}

const keyOf = (input: JudgeInput) => `${input.questionId}\u0000${input.repeat ?? 0}`

/** Whether a prefetched answer is the one asked about: the same text judged against the same passages. */
function sameInput(a: JudgeInput, b: JudgeInput): boolean {
  return (
    a.question === b.question &&
    JSON.stringify(a.history) === JSON.stringify(b.history) &&
    a.answer === b.answer &&
    JSON.stringify(a.cited) === JSON.stringify(b.cited) &&
    a.goldAnswer === b.goldAnswer &&
    a.context.length === b.context.length &&
    a.context.every((passage, i) => passage.chunkId === b.context[i]!.chunkId && passage.text === b.context[i]!.text)
  )
}

/**
 * The offline judge on a second thread for a large run, else null. The same verdicts: the judge is deterministic,
 * and a verdict for an input other than the one prefetched is made on this thread.
 */
export function offlineJudgeOnThread(questions: number): PrefetchingJudge | null {
  return questions >= MIN_QUESTIONS && availableParallelism() >= 2 && threadsEnabled() ? startJudgeThread() : null
}

function startJudgeThread(): PrefetchingJudge {
  // A small young generation: its garbage is short-lived, and its memory adds to the run's peak.
  const thread = ownModuleThread(THREAD, { resourceLimits: { maxYoungGenerationSizeMb: 8 } })
  const prefetched = new Map<string, { input: JudgeInput; verdict: Promise<Judgement>; settle: (judgement: Judgement) => void }>()
  let batch: JudgeThreadRequest = []
  let alive = true
  const flush = () => {
    if (batch.length > 0 && alive) thread.postMessage(batch)
    batch = []
  }
  // A thread that fails (to load, say) leaves every verdict it owes to this thread.
  const fallBack = () => {
    alive = false
    for (const { input, settle } of prefetched.values()) void offlineJudge.judge(input).then(settle)
  }
  thread.on('message', (reply: JudgeThreadReply) => {
    for (const { key, judgement } of reply) prefetched.get(key)?.settle(judgement)
  })
  thread.on('error', fallBack)
  thread.on('exit', () => alive && fallBack())
  return {
    name: offlineJudge.name,
    prefetch(input) {
      const key = keyOf(input)
      if (!alive || prefetched.has(key)) return
      let settle: (judgement: Judgement) => void = () => {}
      const verdict = new Promise<Judgement>((resolve) => (settle = resolve))
      prefetched.set(key, { input, verdict, settle })
      batch.push({ key, input })
      if (batch.length >= BATCH) flush()
    },
    judge(input) {
      const entry = prefetched.get(keyOf(input))
      if (entry === undefined || !sameInput(entry.input, input)) return offlineJudge.judge(input)
      flush()
      return entry.verdict
    },
    async close() {
      alive = false
      await thread.terminate()
    },
  }
}
