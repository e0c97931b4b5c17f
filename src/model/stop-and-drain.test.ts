import { describe, expect, it } from 'vitest'
import { DiskCache } from './disk-cache.ts'
import { callKey, callParts } from './exchange.ts'
import { ModelCallError, RunStoppedError } from './model-errors.ts'
import { parseFaultSpec, withFaults } from '../model-server/fault-injection.ts'
import { textReply } from '../model-server/messages-server.ts'
import { localClient, textCall } from './testing/test-client.ts'
import { useScriptedServer } from './testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const local = useScriptedServer()
const temp = useTempDirs()

/** Resolves once `check` holds (polled every 5 ms). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5))
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  )

describe('ModelClient.stopAndDrain', () => {
  it('sends nothing after the stop, and every response in flight lands in the cache before it resolves', async () => {
    // The server holds its answers until the stop: the two calls are in flight when it comes, however slow the machine.
    let answer: () => void = () => undefined
    const stopped = new Promise<void>((resolve) => (answer = resolve))
    local.server.setResponder(async (request) => {
      await stopped
      return textReply(request, 'hello')
    })
    const cacheDir = temp.make('stop-cache-')
    const client = localClient(local.server, { cacheDir, concurrency: 2 })
    const calls = [1, 2, 3, 4, 5, 6].map((n) => textCall(`q-00${n}`, `Question ${n}?`))
    const results = calls.map((call) => settled(client.call(call)))
    await until(() => local.server.inFlight === 2)
    const draining = client.stopAndDrain('stopped by SIGTERM')
    answer()
    await draining
    // Two were in flight; the four queued behind the concurrency limit were never sent. (The two may reach the server
    // in either order.)
    expect(local.server.requests.map((r) => (r.body.messages as { content: string }[])[0]!.content).sort()).toEqual([
      'Question 1?',
      'Question 2?',
    ])
    const outcomes = await Promise.all(results)
    const cache = new DiskCache(cacheDir)
    for (const [index, outcome] of outcomes.entries()) {
      const cached = cache.get(callKey(callParts(calls[index]!)))
      if (index < 2) {
        expect(outcome.ok).toBe(true)
        expect(cached?.subject).toBe(`q-00${index + 1}`)
      } else {
        expect(outcome.ok).toBe(false)
        const error = (outcome as { error: ModelCallError }).error
        expect(error).toBeInstanceOf(ModelCallError)
        expect(error.message).toBe(`q-00${index + 1}: test not sent: the run was stopped (stopped by SIGTERM)`)
        expect(error.cause).toBeInstanceOf(RunStoppedError)
        expect(cached).toBeNull()
      }
    }
    // A call made after the stop is refused too, and still nothing reaches the server.
    await expect(client.call(textCall('q-007', 'Later?'))).rejects.toThrow(
      'q-007: test not sent: the run was stopped (stopped by SIGTERM)',
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(local.server.requests).toHaveLength(2)
    // The cache answers what was paid for: a rerun sends nothing for these two.
    const rerun = localClient(local.server, { cacheDir })
    expect((await rerun.call(calls[0]!)).source).toBe('cache')
    expect(local.server.requests).toHaveLength(2)
  })

  it('sends no retry after the stop: a call waiting to retry fails, naming the stop and the failure it had', async () => {
    local.server.setResponder(withFaults((request) => textReply(request, 'hello'), parseFaultSpec('500')))
    // The retry's wait ends only after the stop (the client's sleep is this test's), however slow the machine.
    let waiting = false
    let wake: () => void = () => undefined
    const sleep = () => ((waiting = true), new Promise<void>((resolve) => (wake = resolve)))
    const client = localClient(local.server, { retry: { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 300 }, sleep })
    const outcome = settled(client.call(textCall('q-008')))
    await until(() => waiting)
    const draining = client.stopAndDrain('stopped by SIGTERM')
    wake()
    await draining
    const result = await outcome
    expect(result.ok).toBe(false)
    expect((result as { error: Error }).error.message).toBe(
      'q-008: test (claude-haiku-4-5-20251001) failed after 1 attempt (not retried: stopped by SIGTERM): HTTP 500 api_error: Internal server error (injected fault)',
    )
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect(local.server.requests).toHaveLength(1)
  })
})
