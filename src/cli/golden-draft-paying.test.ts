import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { existsSync } from 'node:fs'
import { KEY, runInPty } from '../testing/pty-session.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

// `rag-eval golden draft` paying for its calls: on a terminal it asks before the first call; --batch sends them through the
// Message Batches API of the local server, at the batch price. The terminal test runs the bin in a pseudo-terminal,
// the batch test in-process.

const local = useScriptedServer()
const temp = useTempDirs()

const draft = (args: string[], cacheDir: string) =>
  ragEvalInProcess(['golden', 'draft', '--count', '12', '--yes', ...args], {
    env: {
      ...process.env,
      EVAL_MODE: '',
      EVAL_MAX_USD: '',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: local.server.url,
      EVAL_CACHE_DIR: cacheDir,
      // The local server ends a batch after one poll: no reason to wait the default 30 s between polls.
      EVAL_BATCH_POLL_MS: '20',
    },
  })

const readDrafts = (file: string): GoldenQuestion[] =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => ({ ...GoldenQuestionSchema.parse(JSON.parse(line)), provenance: undefined }))

/** The dollar figure and the calls of the closing "model calls: ..." line. */
function closingLine(stdout: string): { calls: number; usd: number; line: string } {
  const line = stdout.split('\n').find((l) => l.startsWith('model calls: '))
  if (!line) throw new Error(`no "model calls:" line in:\n${stdout}`)
  const m = /^model calls: (\d+) to the API, 0 from the cache, 0 retries; \$(\d+\.\d+)/.exec(line)
  if (!m) throw new Error(`unexpected closing line: ${line}`)
  return { calls: Number(m[1]), usd: Number(m[2]), line }
}

describe('rag-eval golden draft --batch', () => {
  it('sends every drafting call in batches, drafts the same questions, and pays half the price', async () => {
    const dir = temp.make('golden-draft-batch-')
    const direct = await draft(['--out', join(dir, 'direct.jsonl')], join(dir, 'cache-direct'))
    expect(direct.stderr).toBe('')
    expect(direct.code).toBe(0)
    const directCalls = local.server.requests.length
    expect(local.server.batches).toHaveLength(0)
    const paid = closingLine(direct.stdout)
    expect(paid.calls).toBe(directCalls)

    local.server.resetStats()
    const batched = await draft(['--batch', '--out', join(dir, 'batched.jsonl')], join(dir, 'cache-batched'))
    expect(batched.stderr).toBe('')
    expect(batched.code).toBe(0)
    // No call went to /v1/messages: every one was an item of a batch.
    expect(local.server.requests).toHaveLength(0)
    expect(local.server.batches.length).toBeGreaterThan(0)
    expect(local.server.batches.reduce((n, b) => n + b.requests.length, 0)).toBe(directCalls)
    expect(readDrafts(join(dir, 'batched.jsonl'))).toEqual(readDrafts(join(dir, 'direct.jsonl')))
    // The same tokens at half the price; the saving is the other half.
    const half = closingLine(batched.stdout)
    expect(half.calls).toBe(directCalls)
    expect(half.usd).toBeCloseTo(paid.usd / 2, 4)
    expect(half.line).toContain(`(${directCalls} in batches, $${(paid.usd - half.usd).toFixed(4)} saved)`)
    expect(batched.stdout).toContain('in batches at the batch price')
  })
})

describe('rag-eval golden draft on a terminal', () => {
  it('prints the estimate and asks before the first call: no sends nothing and writes nothing, yes drafts', async () => {
    const dir = temp.make('golden-draft-ask-')
    const out = join(dir, 'drafts.jsonl')
    const argv = [process.execPath, ...ragEvalArgv(['golden', 'draft', '--count', '4', '--out', out])]
    const env = {
      ...process.env,
      EVAL_MODE: '',
      EVAL_MAX_USD: '',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: local.server.url,
      EVAL_CACHE_DIR: join(dir, 'cache'),
    }
    const declined = await runInPty(argv, {
      env,
      cwd: process.cwd(),
      dir,
      steps: [{ expect: 'Draft now?', send: `n${KEY.enter}` }],
    })
    expect(declined.code, declined.transcript).toBe(1)
    expect(declined.transcript).toMatch(/cost estimate before any model call[\s\S]*Draft now\?[\s\S]*nothing drafted/)
    expect(local.server.requests).toHaveLength(0)
    expect(existsSync(out)).toBe(false)

    const accepted = await runInPty(argv, {
      env,
      cwd: process.cwd(),
      dir,
      steps: [{ expect: 'Draft now?', send: `y${KEY.enter}` }],
    })
    expect(accepted.code, accepted.transcript).toBe(0)
    expect(local.server.requests.length).toBeGreaterThan(0)
    expect(readDrafts(out)).toHaveLength(4)
  })
})
