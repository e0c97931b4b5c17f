// examples/api-key-service, installed from the packed tarball and run with a user's commands.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { startMessagesServer } from '../src/model-server/messages-server.ts'
import { scriptedReply } from '../src/model-server/scripted-responder.ts'
import type { CommandResult } from '../src/testing/user-project.ts'
import { freePort, readReport, useUserProjects, vitest } from './user-projects.ts'

describe('examples/api-key-service: a header secret from the environment, kept out of every byte written and printed', () => {
  const userProject = useUserProjects()

  /** Every file under the project written or changed since `since` (node_modules included: Vitest's caches live there). */
  function filesWrittenSince(dir: string, since: number): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => statSync(path).mtimeMs >= since)
  }
  /** Any 10 characters of the secret's random part in a row: a secret cut by an excerpt still leaks. */
  const pieces = (secret: string) => Array.from({ length: secret.length - 9 }, (_, at) => secret.slice(at, at + 10))
  /** The key as the service echoes it encoded (service.mjs, LEAKY=1): each must be redacted as well. */
  const encodings = (secret: string) => [
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    encodeURIComponent(secret),
    Buffer.from(secret).toString('hex'),
    Buffer.from(`user:${secret}`).toString('base64'),
  ]
  const leaks = (text: string, secret: string) =>
    [...pieces(secret), ...encodings(secret)].filter((piece) => text.includes(piece))
  /** A file's bytes as text, a gzipped one (the html report's data) unpacked. */
  const contents = (path: string) =>
    (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('latin1')

  it('resolves ${env:RAG_API_KEY} at the start (a missing one named before any request), and redacts its value from reports, caches, recordings, blobs, compare files, logs and Vitest output', async () => {
    // @vitest/ui: the html reporter, whose report (html/) is searched too.
    const project = await userProject('examples/api-key-service', ['@vitest/ui@4.1.12'])
    const port = String(await freePort())
    const config = join(project.dir, 'rag-eval.config.ts')
    // Retries wait 10 ms, not the default 500 ms (retryBaseMs is set in the config only).
    const example = readFileSync(config, 'utf8').replace('  budgetTokens: 400,\n', '  budgetTokens: 400,\n  retryBaseMs: 10,\n')
    expect(example).toContain('retryBaseMs: 10,')
    writeFileSync(config, example.replaceAll('8766', port))
    // Run B of EVAL_COMPARE: the same service under another name, on a port of its own (B runs beside A, and each
    // starts its service: on one port the second would find it taken).
    writeFileSync(
      join(project.dir, 'rag-eval.b.config.ts'),
      example
        .replaceAll('8766', String(await freePort()))
        .replace("baseline: 'baseline',", "baseline: 'baseline',\n  reports: 'reports-b',"),
    )
    const started = Date.now()
    const outputs: CommandResult[] = []
    const run = async (args: string[], env: Record<string, string>) => {
      const result = await vitest(project, args, { EVAL_MAX_RETRIES: '1', ...env })
      outputs.push(result)
      return result
    }
    const hex = (bytes: number) => randomBytes(bytes).toString('hex')

    // No variable: the run stops before the service is started, naming it.
    const missing = await run([], { RAG_API_KEY: '' })
    expect(missing.code).toBe(1)
    expect(missing.output).toContain(
      'system.http: the environment variable RAG_API_KEY is not set (or empty), referenced by headers.Authorization; set it before the run',
    )
    expect(missing.output).not.toContain('[service]')

    // An offline run (the evaluation in a thread of Vitest) beside a comparison, with a service that echoes the key.
    const secretA = `sk-${hex(16)}`
    const offline = await run(['--reporter=html'], { RAG_API_KEY: secretA, LEAKY: '1', EVAL_COMPARE: 'rag-eval.b.config.ts' })
    // k-002 and k-003 fail (system errors): the cases fail and quote the service's bodies, redacted.
    expect(offline.code, offline.output).toBe(1)
    expect(offline.output).toContain(
      `k-003: http://127.0.0.1:${port}/rag answered HTTP 422: {"error":"cannot answer","request":{"headers":{`,
    )
    expect(offline.output).toContain('"authorization":"[REDACTED]"')
    expect(offline.output).toContain('[service] POST k-001 authorization=[REDACTED]')
    const report = readReport(join(project.dir, 'reports/latest.json'))
    expect(report.questions.find((q) => q.id === 'k-001')?.answer).toMatch(
      /\(served for \[REDACTED\]; base64 \[REDACTED\] base64url \[REDACTED\] url \[REDACTED\] hex \[REDACTED\] basic dXNlc\[REDACTED\]\)$/,
    )
    expect(report.questions.filter((q) => q.systemError !== null).map((q) => q.id)).toEqual(['k-002', 'k-003'])
    expect(report.questions.find((q) => q.id === 'k-002')?.systemError).toContain(
      'answered HTTP 503: upstream timed out; the request was {',
    )
    expect(existsSync(join(project.dir, 'reports/compare.json'))).toBe(true)

    // Record mode (the evaluation in a child process), against the local Messages API: the judge's prompts
    // quote the answer, so a secret in it would be in the model cache, the recording, and the cache keys.
    const model = await startMessagesServer(scriptedReply)
    try {
      const modelEnv = { EVAL_MODE: 'record', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.url, LEAKY: '1' }
      const recorded = await run([], { ...modelEnv, RAG_API_KEY: secretA })
      expect(recorded.code, recorded.output).toBe(1)
      const calls = model.requests.length
      expect(calls).toBeGreaterThan(0)
      const cacheKeys = () =>
        filesWrittenSince(join(project.dir, '.cache/model'), 0)
          .map((path) => path.slice(project.dir.length))
          .sort()
      const keysA = cacheKeys()
      expect(keysA.length).toBeGreaterThan(0)
      // Another key, the same requests: every call is a cache hit, under the same keys. The key is in none of them.
      const secretB = `sk-${hex(16)}`
      const again = await run([], { ...modelEnv, EVAL_MODE: 'live', RAG_API_KEY: secretB })
      expect(again.code, again.output).toBe(1)
      expect(model.requests.length).toBe(calls)
      expect(cacheKeys()).toEqual(keysA)
      expect(model.requests.map((request) => JSON.stringify(request.body)).join('\n')).toContain('[REDACTED]')
      for (const request of model.requests) expect(leaks(JSON.stringify(request), secretA)).toEqual([])

      // Shards: each with the blob reporter, then the merge. One after the other, as on one machine: each starts the
      // service on the config's port, so two at once would find it taken.
      for (const index of [1, 2]) {
        const shard = await run([`--shard=${index}/2`, '--reporter=blob'], { RAG_API_KEY: secretB, LEAKY: '1' })
        expect(shard.output).not.toContain('not set')
      }
      expect(readdirSync(join(project.dir, '.vitest-reports')).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json'])
      const merged = await vitest(project, ['--merge-reports'], { RAG_API_KEY: secretB })
      outputs.push(merged)
      expect(merged.output).toContain('k-003')

      // Every byte this test made the suite write or print: no piece of either key.
      const written = filesWrittenSince(project.dir, started)
      expect(written.map((path) => path.slice(project.dir.length + 1))).toEqual(
        expect.arrayContaining([
          'reports/latest.json',
          'reports/latest.md',
          'reports/contexts.jsonl',
          'reports/compare.json',
          'reports/compare.md',
          'html/index.html',
          'html/html.meta.json.gz',
          expect.stringMatching(/^\.cache\/tokens\//),
          expect.stringMatching(/^\.cache\/model\//),
          expect.stringMatching(/^fixtures\/recordings\/golden-set\//),
          '.vitest-reports/blob-1-2.json',
          expect.stringMatching(/^reports\/shards\//),
        ]),
      )
      for (const secret of [secretA, secretB]) {
        for (const path of written) expect(leaks(contents(path), secret), path).toEqual([])
        for (const output of outputs) expect(leaks(output.output, secret)).toEqual([])
      }
    } finally {
      await model.close()
    }
  })
})
