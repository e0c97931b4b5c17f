import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkHttpResponse, HttpRequestSchema, HttpResponseSchema, previewValue } from './http-contract.ts'

/** The contract as JSON Schema (draft 2020-12), for docs/http-contract.schema.json and the user's own validators. */
export function httpContractJsonSchema(): Record<string, unknown> {
  const generate = (schema: z.ZodType) => {
    const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >
    return rest
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'rag-vitest-eval HTTP system contract',
    description:
      'The suite POSTs one Request per golden question to the configured url and expects one Response. Generated from src/system/http-contract.ts; see docs/your-pipeline.md.',
    $defs: { Request: generate(HttpRequestSchema), Response: generate(HttpResponseSchema) },
  }
}

describe('the HTTP contract', () => {
  it('is published as docs/http-contract.schema.json, generated from the zod schemas (vitest -u rewrites it)', async () => {
    await expect(`${JSON.stringify(httpContractJsonSchema(), null, 2)}\n`).toMatchFileSnapshot(
      '../../docs/http-contract.schema.json',
    )
  })

  it('accepts the minimal response: an empty ranking', () => {
    expect(checkHttpResponse({ ranked: [] })).toEqual({ ok: true, response: { ranked: [] } })
  })

  it('keeps metadata on the response and on chunks (ignored by the suite, never an error)', () => {
    const body = { ranked: [{ docId: 'a', text: 't', metadata: { page: 3 } }], metadata: { model: 'x' } }
    expect(checkHttpResponse(body)).toEqual({ ok: true, response: body })
  })

  it('names bad scores and ids', () => {
    expect(checkHttpResponse({ ranked: [{ docId: '', text: 't', score: '1.5' }] })).toEqual({
      ok: false,
      problems: 'ranked[0].docId: expected a non-empty document id; ranked[0].score: expected a finite number, got "1.5"',
    })
  })

  it('accepts stages, citations and the prompt; names a bad stage and a citation outside the answer', () => {
    const chunk = { docId: 'a', text: 'Refunds take 14 days.' }
    const body = {
      ranked: [chunk],
      stages: [
        { name: 'retrieve', ranked: [chunk, { docId: 'b', text: 'x' }], query: 'refund time', latencyMs: 3 },
        { name: 'rerank', ranked: [chunk] },
      ],
      answer: 'Refunds take 14 days [1].',
      citations: [{ start: 0, end: 21, chunkIds: ['a#0'] }],
      prompt: 'Answer from the context.',
    }
    expect(checkHttpResponse(body)).toEqual({ ok: true, response: body })
    expect(
      checkHttpResponse({
        ranked: [],
        stages: [
          {
            name: '',
            ranked: [
              { ...chunk, chunkId: 'a#0' },
              { ...chunk, chunkId: 'a#0' },
            ],
          },
          { ranked: [] },
        ],
        answer: 'Short.',
        citations: [
          { start: 2, end: 9, chunkIds: ['a#0'] },
          { start: 3, end: 3, chunkIds: [] },
        ],
      }),
    ).toEqual({
      ok: false,
      problems:
        'stages[0].name: expected a non-empty stage name; stages[0].ranked[1].chunkId: "a#0" is ranked twice (first as ranked[0]); each chunk is ranked once; stages[1].name: missing; expected a string; and 1 more',
    })
    expect(checkHttpResponse({ ranked: [], citations: [{ start: 0, end: 1, chunkIds: ['a#0'] }] })).toEqual({
      ok: false,
      problems: 'citations[0]: a citation needs an answer to cite from',
    })
    expect(checkHttpResponse({ ranked: [], answer: 'Short.', citations: [{ start: 2, end: 9, chunkIds: ['a#0'] }] })).toEqual({
      ok: false,
      problems: "citations[0]: end 9 is past the answer's 6 characters",
    })
  })

  it('describes the request the suite sends', () => {
    expect(HttpRequestSchema.parse({ id: 'q-1', question: 'Why?', userContext: null })).toEqual({
      id: 'q-1',
      question: 'Why?',
      userContext: null,
    })
  })

  it('describes a follow-up request: history turns of role user or assistant, with text', () => {
    const history = [
      { role: 'user', content: 'What does Pro cost?' },
      { role: 'assistant', content: 'USD 49.' },
    ]
    expect(HttpRequestSchema.parse({ id: 'q-2', question: 'And Enterprise?', userContext: null, history })).toEqual({
      id: 'q-2',
      question: 'And Enterprise?',
      userContext: null,
      history,
    })
    const bad = HttpRequestSchema.safeParse({
      id: 'q-2',
      question: 'And Enterprise?',
      userContext: null,
      history: [
        { role: 'system', content: 'x' },
        { role: 'user', content: ' ' },
      ],
    })
    expect(bad.success ? [] : bad.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'history.0.role: unknown role "system"; expected user or assistant',
      'history.1.content: expected the text of the turn',
    ])
  })

  it('previews values in messages: short JSON for scalars, the kind for containers', () => {
    expect([
      previewValue(42),
      previewValue('x'),
      previewValue(null),
      previewValue([1]),
      previewValue({}),
      previewValue(undefined),
      previewValue(Number.NaN),
      previewValue(-Infinity),
      previewValue(() => 1),
      previewValue(10n),
    ]).toEqual(['42', '"x"', 'null', 'an array', 'an object', 'nothing', 'NaN', '-Infinity', 'a function', '10n'])
    expect(previewValue('y'.repeat(100))).toBe(`"${'y'.repeat(56)}...`)
  })
})
