import { createServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadGoldenSet } from '../load/golden-set.ts'
import { detectRefusal } from '../scoring/generation/refusal.ts'
import { HttpResponseSchema } from './http-contract.ts'
import { createHttpSystem } from './http-system.ts'
import { systemQuestionOf, type SystemAnswer } from './rag-system.ts'
import { startService, type RunningService } from './service-launcher.ts'
import { countTextTokens } from '../text/tokenizer.ts'

/** examples/http-service: the Python service started as the suite starts it, asked its own golden set. */
const exampleDir = fileURLToPath(new URL('../../examples/http-service/', import.meta.url))
const golden = loadGoldenSet(`${exampleDir}evals/golden-set.json`, null)

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

interface Running {
  url: string
  service: RunningService
  log: string[]
  answers: Map<string, SystemAnswer>
}

/** Starts the example (BROKEN=1 or not) and asks it every golden question through the HTTP system. */
async function runExample(broken: boolean): Promise<Running> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/rag`
  const log: string[] = []
  const service = await startService({
    command: 'python3 service.py',
    url,
    cwd: exampleDir,
    env: { PORT: String(port), BROKEN: broken ? '1' : '' },
    log: (line) => log.push(line),
  })
  const system = createHttpSystem({
    url,
    timeoutMs: 60_000, // only a hang meets it
    maxRetries: 0,
    retryBaseMs: 1,
    retryMaxMs: 1,
    budgetTokens: 600,
    countTokens: countTextTokens,
  })
  const answers = new Map<string, SystemAnswer>()
  for (const question of golden) answers.set(question.id, await system.answer(systemQuestionOf(question)))
  return { url, service, log, answers }
}

let working: Running
let broken: Running
beforeAll(async () => {
  working = await runExample(false)
  broken = await runExample(true)
})
afterAll(async () => {
  await working?.service.stop()
  await broken?.service.stop()
})

const answerable = golden.filter((question) => question.type !== 'none')
/** The golden question's doc ids that must be in the context for a hit (the suite's recall rule). */
const contextHit = (answer: SystemAnswer, question: (typeof golden)[number]) => {
  const inContext = new Set(answer.context.map((chunk) => chunk.docId))
  if (question.type === 'multi') return question.answerDocIds.every((id) => inContext.has(id))
  if (question.governingDocId) return inContext.has(question.governingDocId)
  return question.answerDocIds.some((id) => inContext.has(id))
}

describe('examples/http-service', () => {
  it('has a golden set of 13 questions, six with a userContext, one a follow-up', () => {
    expect(golden.map((question) => question.id)).toEqual([
      'h-001',
      'h-002',
      'h-003',
      'h-004',
      'h-005',
      'h-006',
      'h-007',
      'h-008',
      'h-009',
      'h-010',
      'h-011',
      'h-012',
      'h-013',
    ])
    expect(golden.filter((question) => question.userContext !== undefined).map((question) => question.id)).toEqual([
      'h-001',
      'h-007',
      'h-008',
      'h-009',
      'h-011',
      'h-013',
    ])
    expect(golden.filter((question) => question.history !== undefined).map((question) => question.id)).toEqual(['h-013'])
  })

  it("searches a follow-up question after the user's earlier turns: asked alone, h-013 misses the pets page", async () => {
    const ask = async (body: object) => {
      const response = await fetch(working.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return HttpResponseSchema.parse(await response.json()).ranked.map((chunk) => chunk.docId)
    }
    const h013 = golden.find((question) => question.id === 'h-013')!
    // An id of its own: the log test counts the golden questions' requests.
    const request = { id: 'x-13', question: h013.question, userContext: { role: 'passenger' } }
    expect((await ask(request))[0]).not.toBe('passengers/pets')
    expect((await ask({ ...request, history: h013.history }))[0]).toBe('passengers/pets')
    expect(working.answers.get('h-013')!.answer).toBe(
      'Dogs are welcome on the open upper deck, on a short leash, with at most two dogs per passenger [1].',
    )
  })

  it('answers with a body that follows the contract, and GET / for the readiness check', async () => {
    const response = await fetch(working.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x-1', question: 'How long is lost property kept?', userContext: null }),
    })
    expect(response.status).toBe(200)
    const body = HttpResponseSchema.parse(await response.json())
    expect(body.ranked[0]).toMatchObject({ docId: 'passengers/lost-property', chunkId: 'passengers/lost-property#0' })
    expect(body.answer).toBe(
      'Lost property is kept there for 60 days, then donated to charity; keys, wallets and phones are kept for 90 days [1].',
    )
    expect((await fetch(new URL('/', working.url))).status).toBe(200)
  })

  it('refuses a request without a question with 400 and says what it expects', async () => {
    const response = await fetch(working.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'x-2' }),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: "expected {'id', 'question', 'userContext'}: 'question'" })
  })

  it('finds the answer documents of every answerable question in its context, and refuses the two none questions', () => {
    expect(
      answerable.filter((question) => !contextHit(working.answers.get(question.id)!, question)).map((question) => question.id),
    ).toEqual([])
    const refused = golden
      .filter((question) => detectRefusal(working.answers.get(question.id)!.answer ?? '') === 'refused')
      .map((question) => question.id)
    expect(refused).toEqual(['h-008', 'h-010'])
  })

  it('follows the newer fare table when the two disagree, and answers from the documents it found', () => {
    expect(working.answers.get('h-005')!.answer).toBe('An adult single costs 7.20 and an adult return costs 12.40 [2].')
    expect(working.answers.get('h-004')!.answer).toBe(
      'Each sailing keeps four wheelchair spaces in the saloon, next to the lift [1].',
    )
  })

  it('honours userContext: the crew sees the restricted weather document, a passenger never does', () => {
    const docs = (id: string) => new Set(working.answers.get(id)!.ranked.map((chunk) => chunk.docId))
    expect(docs('h-007').has('crew/weather-cancellations')).toBe(true)
    expect(docs('h-008').has('crew/weather-cancellations')).toBe(false)
    expect(docs('h-008').has('crew-incidents') || docs('h-008').has('crew/fuel-log')).toBe(false)
  })

  it('logs one line per request to stderr', () => {
    const requests = working.log.filter((line) => line.startsWith('[service] POST /rag h-'))
    expect(requests).toHaveLength(golden.length)
    expect(requests.find((line) => line.includes(' h-007 '))).toMatch(
      /^\[service\] POST \/rag h-007 role=crew -> \d+ ranked, \d+ in context, answered \(\d+\.\d ms\)$/,
    )
  })

  it('with BROKEN=1 ranks unrelated documents: no answerable question has an answer document first', () => {
    const firstIsAnswer = (running: Running) =>
      answerable.filter((question) => question.answerDocIds.includes(running.answers.get(question.id)!.ranked[0]?.docId ?? ''))
        .length
    expect(firstIsAnswer(working)).toBe(answerable.length)
    expect(firstIsAnswer(broken)).toBe(0)
  })
})
