import pLimit from 'p-limit'
import type { GoldenQuestion } from '../load/golden-set-schema.ts'
import type { RagSystem, SystemAnswer } from '../system/rag-system.ts'

export interface QuestionRun {
  question: GoldenQuestion
  output: SystemAnswer
  /** Wall time of the retrieval stage (the system's own figure, else the whole call). */
  retrieveMs: number
  /** Wall time of the generation stage, when the system reports one. */
  generateMs: number | null
}

/** Raised when the system under test fails on a question: names the question, keeps the cause. */
export class SystemFailure extends Error {
  override name = 'SystemFailure'
}

/**
 * Asks the system every question, at most `concurrency` at a time, and returns the runs in golden-set
 * order (whatever order they finished in). The first failure aborts the run, naming its question.
 */
export async function runSystem(system: RagSystem, questions: readonly GoldenQuestion[], concurrency: number): Promise<QuestionRun[]> {
  const limit = pLimit(concurrency)
  return Promise.all(
    questions.map((question) =>
      limit(async () => {
        const started = performance.now()
        let output: SystemAnswer
        try {
          output = await system.answer({ id: question.id, question: question.question })
        } catch (error) {
          throw new SystemFailure(`question ${question.id}: ${system.name} failed: ${(error as Error).message}`, { cause: error })
        }
        return { question, output, retrieveMs: output.timingsMs?.retrieve ?? performance.now() - started, generateMs: output.timingsMs?.generate ?? null }
      }),
    ),
  )
}
