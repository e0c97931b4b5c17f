import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'
import { BudgetExceededError, SpendingCap } from './spending-cap.ts'
import { TEST_API_KEY } from './testing/test-client.ts'
import { useScriptedServer } from './testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const local = useScriptedServer()
const temp = useTempDirs()

describe('SpendingCap: the cap reached with nothing in flight stops the run', () => {
  it('after reservations whose float sum leaves a residue are all given back', () => {
    // 0.1 + 0.2 - 0.1 - 0.2 is 5.55e-17 in floating point, not 0: a running sum said something was still in flight.
    const cap = new SpendingCap(0.35, 'resume hint')
    const a = cap.reserve('a', 0.1)
    const b = cap.reserve('b', 0.2)
    cap.release(a)
    cap.release(b)
    // Nothing is in flight, so nothing can make room: the call is refused now instead of waiting forever.
    expect(() => cap.tryReserve('q-009 generate (m)', 0.4)).toThrow(BudgetExceededError)
    expect(() => cap.tryReserve('q-009 generate (m)', 0.4)).toThrow(
      'EVAL_MAX_USD=$0.3500 reached: q-009 generate (m) was not sent, because its worst case ($0.4000, the reply at max_tokens) could take the run over the cap. Spent: $0.0000 on 0 API call(s). resume hint; or raise EVAL_MAX_USD.',
    )
  })

  it('still makes a call wait while another is in flight, and lets it go when that one lands', async () => {
    const cap = new SpendingCap(0.35, 'resume hint')
    const first = cap.reserve('first', 0.3)
    const waiting = cap.reserveWhenRoom('second', 0.3)
    cap.settle(first, 0.01)
    await expect(waiting).resolves.toEqual({ usd: 0.3, open: true })
    expect(cap.spent).toBe(0.01)
  })
})

describe('a live run stopped by EVAL_MAX_USD', () => {
  it('always rejects with the budget error, on the first run and on every resumed run', async () => {
    // The reproduction: a golden set of every type against a server with latency, a cap each run reaches with calls
    // in flight; before the fix 2 of 5 first runs and 7 of 8 resumed runs never settled (the process exited 0,
    // silently). The known-good set's 87 calls cost $0.125, so three runs capped at $0.05 each stop short of its end.
    local.server.latencyMs = 40
    const repository = await loadProjectConfig()
    const project = {
      ...repository,
      corpus: { ...repository.corpus!, dir: 'fixtures/golden-known-good/corpus' },
      goldenSet: 'fixtures/golden-known-good/golden-set.json',
      cacheDir: temp.make('cap-cache-'),
      recordingsDir: temp.make('cap-recordings-'),
    }
    const env = { EVAL_MODE: 'live', ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: local.server.url, EVAL_MAX_USD: '0.05' }
    for (let run = 0; run < 3; run += 1) {
      // The failure this guards against is a run that never settles (in a CLI the event loop emptied and the process exited 0);
      // here it would meet the test's hang limit, whatever the machine's speed.
      const error: unknown = await evaluate(project, { tier: 'full', env }).then(
        () => 'resolved with a report',
        (e: unknown) => e,
      )
      expect(error, `run ${run + 1}`).toBeInstanceOf(BudgetExceededError)
      const message = (error as Error).message
      expect(message).toMatch(
        /^EVAL_MAX_USD=\$0\.0500 reached: kg-\d\d \S+ \(claude-[a-z0-9-]+\) was not sent, because its worst case \(\$0\.\d{4}, the reply at max_tokens\) could take the run over the cap\. Spent: \$0\.0[1-4]\d{2} on \d+ API call\(s\)\. /,
      )
      // The spent amount named is what the server billed the run's calls, every in-flight call landed.
      const spent = Number(/Spent: \$(\d\.\d{4})/.exec(message)![1])
      expect(spent).toBeLessThanOrEqual(0.05)
    }
    // The cap was reached while other calls were in flight, the case the bug needed.
    expect(local.server.maxInFlight).toBeGreaterThan(1)
  })
})
