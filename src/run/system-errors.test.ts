import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { RagSystem } from '../system/rag-system.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { runFailsGate, runFailures } from '../gate/run-failures.ts'
import { evaluate } from './evaluate.ts'

/** The tiny project: three questions (g-1 single, g-2 multi, g-3 none) over three documents. */
const tiny = await loadProjectConfig({ overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' } })

/** Answers from t-001 for everything, and throws on g-2. */
const failingOnG2: RagSystem = {
  name: 'fails-on-g-2',
  async answer({ id }) {
    if (id === 'g-2') throw new Error('vector store timed out')
    const chunk = {
      chunkId: 't-001#0',
      docId: 't-001',
      score: 1,
      tokens: 20,
      text: 'Traces are kept for 15 days on Team and 30 days on Business.',
    }
    return { ranked: [chunk], context: [chunk], answer: chunk.text }
  },
}

describe('a system that fails on a question', () => {
  it('records the failure on that question, goes on with the others, and fails the gate naming it', async () => {
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: failingOnG2, baselineRoot: null })
    const g2 = report.questions.find((q) => q.id === 'g-2')!
    expect(g2).toMatchObject({
      systemError: 'fails-on-g-2 failed: vector store timed out',
      hit: false,
      answer: null,
      rankedDocIds: [],
    })
    expect(report.questions.find((q) => q.id === 'g-1')).toMatchObject({ systemError: null, hit: true })
    expect(report.summary).toMatchObject({ systemErrors: 1, systemErrorRate: 0.3333 })
    // The tiny project has no baseline of this system: the run is gated against an empty folder (no baseline).
    const gated = await evaluate(tiny, { tier: 'full', env: {}, system: failingOnG2, baselineRoot: 'fixtures/no-such-baseline' })
    // Named apart from the regressions: an error is not a miss.
    expect(gated.gate?.systemErrors).toEqual({
      errors: 1,
      questions: 3,
      rate: 0.3333,
      limit: 0,
      exceeded: true,
      unmeasured: [{ id: 'g-2', error: 'fails-on-g-2 failed: vector store timed out', baselinePassed: null }],
    })
  })

  it('not compared with a baseline, GATE=1 still fails on the system errors (as on judge errors)', async () => {
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: failingOnG2, baselineRoot: null })
    expect(report.gate).toBeNull()
    expect(runFailures(report)).toEqual([{ name: 'system errors on g-2 (limit 0)', baseline: 0, current: 0.3333, delta: 0.3333 }])
    expect(runFailsGate(report)).toBe(true)
  })

  it('under maxSystemErrorRate the failure is reported but does not fail the gate', async () => {
    const gated = await evaluate(tiny, {
      tier: 'full',
      env: { EVAL_MAX_SYSTEM_ERROR_RATE: '0.5' },
      system: failingOnG2,
      baselineRoot: 'fixtures/no-such-baseline',
    })
    expect(gated.summary.systemErrors).toBe(1)
    expect(gated.gate?.regressions.filter((r) => r.name.startsWith('system errors'))).toEqual([])
  })

  it('a factory that returns something else is named', async () => {
    await expect(
      evaluate(tiny, { tier: 'retrieval', env: {}, system: () => ({ name: 'x' }) as unknown as RagSystem, baselineRoot: null }),
    ).rejects.toThrow(
      'system (inline): expected a RagSystem (an object with answer(question)) or a factory returning one, got object',
    )
  })
})

describe('an HTTP service whose response breaks the contract', () => {
  let server: Server
  let url = ''
  beforeAll(async () => {
    // Answers g-1 properly, and g-3 with a docId that is a number.
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: string }
        const docId = id === 'g-3' ? 42 : 't-001'
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ ranked: [{ docId, text: 'Traces are kept for 15 days on Team and 30 days on Business.' }] }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('is a system error for that question naming the field; without an answer, generation metrics say why', async () => {
    const report = await evaluate(tiny, { tier: 'full', env: {}, system: { http: { url } }, baselineRoot: null })
    expect(report.questions.find((q) => q.id === 'g-3')?.systemError).toContain('ranked[0].docId: expected a string, got 42')
    expect(report.questions.find((q) => q.id === 'g-1')).toMatchObject({ systemError: null, hit: true, answer: null })
    expect(report.summary.faithfulness).toBeNull()
    expect(report.summary.notComputed.faithfulness).toBe(
      'the system under test returned no answers (its responses carry no "answer"): retrieval metrics only',
    )
    // No chunk counts from a service: chunk-level nDCG@10 has no ideal ranking; the doc-level one stands in.
    expect(report.summary.ndcg10).toBeNull()
    expect(report.summary.notComputed.ndcg10).toMatch(
      /^the system does not report its chunk counts per document \(chunkCountByDoc\)/,
    )
    // g-1 ranks its one answer doc first: doc-level nDCG@10 = 1; g-2 (two answer docs, one ranked first) = 1 / (1 + 1/log2 3) = 0.6131.
    expect(report.summary.docNdcg10).toBe(0.8066)
    expect(renderTerminalSummary(report)).toMatch(/\nnDCG@10 \(doc-level\) +0\.8066/)
    // A full run without answers renders (it crashed on the empty diagnosis table before).
    expect(renderMarkdown(report)).toContain('## Diagnosis: recall x faithfulness')
  })

  it('a service that never starts is named by its command', async () => {
    const spec = { http: { url: 'http://127.0.0.1:9/rag', command: 'sleep 30', timeoutMs: 500 } }
    await expect(evaluate(tiny, { tier: 'retrieval', env: {}, system: spec, baselineRoot: null })).rejects.toThrow(
      /service "sleep 30" did not answer at http:\/\/127\.0\.0\.1:9\/ within 500 ms/,
    )
  })
})
