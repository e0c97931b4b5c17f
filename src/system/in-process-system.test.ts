import { describe, expect, it } from 'vitest'
import { inProcessSystem, type InProcessOptions } from './in-process-system.ts'
import type { RagSystem, SystemAnswer } from './rag-system.ts'
import { SystemError } from './system-error.ts'

/** One token per whitespace-separated word: sizes below are counted by hand. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length
const options: InProcessOptions = { timeoutMs: 60_000, budgetTokens: 5, countTokens: countWords }
const question = { id: 'q-7', question: 'Can I bring my dog?', userContext: null }

/** A system whose answer() is `answer`. */
const answering = (answer: RagSystem['answer']): RagSystem => ({ name: 'mine', answer })

describe('inProcessSystem: an in-process answer held to the HTTP contract', () => {
  it('takes a full answer as it is', async () => {
    const ranked = [{ chunkId: 'pets#0', docId: 'pets', score: 2, tokens: 6, text: 'Dogs ride on the open deck.' }]
    const full: SystemAnswer = { ranked, context: ranked, answer: 'Yes.', timingsMs: { retrieve: 3 } }
    expect(
      await inProcessSystem(
        answering(async () => full),
        options,
      ).answer(question),
    ).toEqual({ ...full, timingsMs: { retrieve: 3, call: expect.any(Number) } })
  })

  it('a wrong shape is a SystemError naming the question and the field, as a service response would be', async () => {
    const wrong = answering(async () => ({ chunks: [] }) as never)
    const error = await inProcessSystem(wrong, options)
      .answer(question)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SystemError)
    expect(error).toMatchObject({
      questionId: 'q-7',
      message: 'q-7: the answer breaks the contract: ranked: missing; expected an array of chunk objects',
    })
    const badChunk = answering(async () => ({ ranked: [{ docId: 42, text: 't', score: 'high' }] }) as never)
    await expect(inProcessSystem(badChunk, options).answer(question)).rejects.toThrow(
      'q-7: the answer breaks the contract: ranked[0].docId: expected a string, got 42; ranked[0].score: expected a finite number, got "high"',
    )
    await expect(
      inProcessSystem(
        answering(async () => undefined as never),
        options,
      ).answer(question),
    ).rejects.toThrow(
      'q-7: the answer breaks the contract: the answer: expected an object {"ranked": [...], "context"?: [...], "answer"?: "..."}, got nothing',
    )
    const nan = answering(async () => ({
      ranked: [{ chunkId: 'a', docId: 'a', score: Number.NaN, tokens: 1, text: 'a' }],
      context: [],
    }))
    await expect(inProcessSystem(nan, options).answer(question)).rejects.toThrow(
      'ranked[0].score: expected a finite number, got NaN',
    )
  })

  it('a chunk id ranked twice is an error naming the question and both places', async () => {
    const chunk = { chunkId: 'pets#0', docId: 'pets', score: 1, tokens: 1, text: 'Dogs.' }
    const twice = answering(async () => ({ ranked: [chunk, { ...chunk, score: 0.5 }], context: [] }))
    await expect(inProcessSystem(twice, options).answer(question)).rejects.toThrow(
      'q-7: the answer breaks the contract: ranked[1].chunkId: "pets#0" is ranked twice (first as ranked[0]); each chunk is ranked once',
    )
  })

  it('fills what it left out as for a service, and drops the fields the contract does not name', async () => {
    const row = { docId: 'pets', text: 'Dogs ride on the open deck.', embedding: [0.1, 0.2] }
    const partial = answering(async () => ({ ranked: [row, { docId: 'tickets', text: 'At the pier.' }] }) as never)
    expect(await inProcessSystem(partial, options).answer(question)).toEqual({
      ranked: [
        { chunkId: 'pets#0', docId: 'pets', score: 2, tokens: 6, text: 'Dogs ride on the open deck.' },
        { chunkId: 'tickets#1', docId: 'tickets', score: 1, tokens: 3, text: 'At the pier.' },
      ],
      // Packed within budgetTokens 5: the 6-token first chunk does not fit, and the context stops there.
      context: [],
      timingsMs: { call: expect.any(Number) },
    })
  })

  it('a call that never settles is a timeout error for that question (the test never waits on a clock: timeoutMs is 1)', async () => {
    const never = answering(() => new Promise<SystemAnswer>(() => {}))
    await expect(inProcessSystem(never, { ...options, timeoutMs: 1 }).answer(question)).rejects.toThrow(
      new SystemError('q-7', 'q-7: did not answer within 1 ms (timeoutMs)'),
    )
  })

  it('an answer() that throws before returning a promise fails that question', async () => {
    const throwing = answering(() => {
      throw new Error('index not loaded')
    })
    await expect(inProcessSystem(throwing, options).answer(question)).rejects.toThrow('index not loaded')
  })

  it('keeps the name, the chunk counts and close()', async () => {
    let closed = 0
    const counts = new Map([['pets', 2]])
    const own: RagSystem = {
      ...answering(async () => ({ ranked: [], context: [] })),
      chunkCountByDoc: counts,
      close: async () => void closed++,
    }
    const held = inProcessSystem(own, options)
    await held.close?.()
    expect([held.name, held.chunkCountByDoc, closed]).toEqual(['mine', counts, 1])
    expect(
      'close' in
        inProcessSystem(
          answering(async () => ({ ranked: [], context: [] })),
          options,
        ),
    ).toBe(false)
  })
})
