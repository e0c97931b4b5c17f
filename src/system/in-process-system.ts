import { checkInProcessAnswer } from './http-contract.ts'
import { completeAnswer, withCallTime, type AnswerDefaults } from './complete-answer.ts'
import type { RagSystem, SystemAnswer, SystemQuestion } from './rag-system.ts'
import { SystemError } from './system-error.ts'

export interface InProcessOptions extends AnswerDefaults {
  /** Limit for one answer() call (the config's timeoutMs, which bounds an HTTP service's attempts too). */
  timeoutMs: number
}

/**
 * answer()'s result, or a SystemError after `timeoutMs`. The timer keeps the event loop alive (a promise that
 * never settles would let a worker exit with no answer); a call given up on runs on, its late result ignored.
 */
function withinTimeout(call: Promise<unknown>, question: SystemQuestion, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SystemError(question.id, `${question.id}: did not answer within ${timeoutMs} ms (timeoutMs)`)),
      timeoutMs,
    )
  })
  // A late rejection of a call given up on is not an unhandled one.
  call.catch(() => {})
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer))
}

/**
 * An in-process system held to an HTTP service's contract: answer() bounded by `timeoutMs`, checked by the
 * response schema (extra fields dropped) and completed alike; a wrong shape or a timeout is a SystemError.
 */
export function inProcessSystem(system: RagSystem, options: InProcessOptions): RagSystem {
  return {
    name: system.name,
    ...(system.chunkCountByDoc === undefined ? {} : { chunkCountByDoc: system.chunkCountByDoc }),
    async answer(question: SystemQuestion): Promise<SystemAnswer> {
      // An answer() that throws before it returns a promise fails the same way as one that rejects.
      const started = performance.now()
      const call = (async () => system.answer(question))()
      const value = await withinTimeout(call, question, options.timeoutMs)
      const ms = performance.now() - started
      const checked = checkInProcessAnswer(value)
      if (!checked.ok) throw new SystemError(question.id, `${question.id}: the answer breaks the contract: ${checked.problems}`)
      return withCallTime(completeAnswer(checked.response, options), ms)
    },
    ...(system.close === undefined ? {} : { close: () => system.close!() }),
  }
}
