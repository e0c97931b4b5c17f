import { checkInProcessAnswer } from './http-contract.ts'
import { completeAnswer, type AnswerDefaults } from './complete-answer.ts'
import type { RagSystem, SystemAnswer, SystemQuestion } from './rag-system.ts'
import { SystemError } from './system-error.ts'

export interface InProcessOptions extends AnswerDefaults {
  /** Limit for one answer() call (the config's timeoutMs, which bounds an HTTP service's attempts too). */
  timeoutMs: number
}

/**
 * answer()'s result, or a SystemError once `timeoutMs` has passed. The timer keeps the event loop alive
 * while it waits (a promise that never settles would otherwise let a worker exit with no answer at all),
 * and is cleared when the call settles (a call's own long timer must not be what ends or holds the run).
 * A call that is given up on keeps running: nothing can cancel it, but its late result is ignored.
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
 * An in-process system (a module's or an inline one) held to the contract an HTTP service is: each
 * answer() is bounded by `timeoutMs`, and what it resolves to is checked by the HTTP response's schema
 * (extra fields aside) and completed the same way (complete-answer.ts). A wrong shape or a timeout is a
 * SystemError for that question, naming the field or the limit: the runner records it and goes on.
 */
export function inProcessSystem(system: RagSystem, options: InProcessOptions): RagSystem {
  return {
    name: system.name,
    ...(system.chunkCountByDoc === undefined ? {} : { chunkCountByDoc: system.chunkCountByDoc }),
    async answer(question: SystemQuestion): Promise<SystemAnswer> {
      // An answer() that throws before it returns a promise fails the same way as one that rejects.
      const call = (async () => system.answer(question))()
      const value = await withinTimeout(call, question, options.timeoutMs)
      const checked = checkInProcessAnswer(value)
      if (!checked.ok) throw new SystemError(question.id, `${question.id}: the answer breaks the contract: ${checked.problems}`)
      return completeAnswer(checked.response, options)
    },
    ...(system.close === undefined ? {} : { close: () => system.close!() }),
  }
}
