import pLimit from 'p-limit'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import { systemQuestionOf, type RagSystem, type SystemAnswer } from '../system/rag-system.ts'
import { numberStages } from '../scoring/loss-funnel.ts'

export interface QuestionRun {
  question: GoldenQuestion
  /** What the system returned; empty ranked and context lists when it failed on the question. */
  output: SystemAnswer
  /** Why the system failed on this question (an error, a response that broke the contract); null when it answered. */
  systemError: string | null
  /** Wall time of the retrieval stage (the system's own figure, else the whole call). */
  retrieveMs: number
  /** Wall time of the generation stage, when the system reports one. */
  generateMs: number | null
}

/** Raised when the system under test fails in a way that stops the run: names the question, keeps the cause. */
export class SystemFailure extends Error {
  override name = 'SystemFailure'
}

/**
 * Asks every question (`concurrency` at a time), runs in golden-set order. A failure is that question's system error,
 * unless `stopsRun` says it concerns the whole run (spending cap, model tier): then the run aborts, naming the question.
 */
export async function runSystem(
  system: RagSystem,
  questions: readonly GoldenQuestion[],
  concurrency: number,
  stopsRun: (error: unknown) => boolean = () => true,
  /** Aborted: no question starts any more (those in flight finish), and the run rejects with the reason. */
  signal?: AbortSignal,
  /** Told of each question's run as soon as it is made (the offline judge on its own thread starts on it). */
  onRun?: (run: QuestionRun) => void,
  /** Which trial this is (config `trials` > 1): passed to the system; undefined for a run of one trial. */
  trial?: number,
): Promise<QuestionRun[]> {
  const limit = pLimit(concurrency)
  return Promise.all(
    questions.map((question) =>
      limit(async (): Promise<QuestionRun> => {
        signal?.throwIfAborted()
        const started = performance.now()
        let output: SystemAnswer
        try {
          output = await system.answer({ ...systemQuestionOf(question), ...(trial === undefined ? {} : { trial }) })
        } catch (error) {
          const message = `${system.name} failed: ${error instanceof Error ? error.message : String(error)}`
          if (stopsRun(error)) {
            // The run is over: questions still queued never start (they would be paid for and thrown away).
            limit.clearQueue()
            throw new SystemFailure(`question ${question.id}: ${message}`, { cause: error })
          }
          return {
            question,
            output: { ranked: [], context: [] },
            systemError: message,
            retrieveMs: performance.now() - started,
            generateMs: null,
          }
        }
        const run: QuestionRun = {
          question,
          output,
          systemError: null,
          retrieveMs: output.timingsMs?.retrieve ?? performance.now() - started,
          generateMs: output.timingsMs?.generate ?? null,
        }
        onRun?.(run)
        return run
      }),
    ),
  )
}

/**
 * One warning when some ranked chunk alone exceeds budgetTokens: packing stops before it (an empty context when it
 * ranks first), which reads as a retrieval miss. Names the first such chunk and how many more there are.
 */
export function oversizedChunkWarning(runs: readonly QuestionRun[], budgetTokens: number): string | null {
  const oversized = runs.flatMap((run) =>
    run.output.ranked.filter((chunk) => chunk.tokens > budgetTokens).map((chunk) => ({ chunk, questionId: run.question.id })),
  )
  const first = oversized[0]
  if (first === undefined) return null
  const chunks = new Set(oversized.map(({ chunk }) => chunk.chunkId)).size
  const questions = new Set(oversized.map(({ questionId }) => questionId)).size
  const more =
    chunks > 1 || questions > 1
      ? ` (${chunks} such chunk${chunks === 1 ? '' : 's'} over ${questions} question${questions === 1 ? '' : 's'})`
      : ''
  return `chunk ${JSON.stringify(first.chunk.chunkId)} (ranked for ${first.questionId}) has ${first.chunk.tokens} tokens, more than budgetTokens ${budgetTokens} on its own: a context packed within the budget stops before it${more}`
}

/** Each pipeline stage's reported latencies over the questions, by its numbered name (`retrieve#2`), for the run's latency. */
export function pipelineStageTimes(runs: readonly QuestionRun[]): Record<string, number[]> {
  const times: Record<string, number[]> = {}
  for (const { output } of runs) {
    const stages = output.stages ?? []
    numberStages(stages.map((stage) => stage.name)).forEach((name, index) => {
      const ms = stages[index]!.latencyMs
      if (ms !== undefined) (times[name] ??= []).push(ms)
    })
  }
  return times
}
