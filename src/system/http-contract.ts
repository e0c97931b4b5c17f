import { z } from 'zod'

/**
 * The HTTP contract between the suite and a user's RAG service (docs/your-pipeline.md). These zod schemas
 * are its single source of truth: the client validates every response with them, and
 * docs/http-contract.schema.json is generated from them. Messages name what was expected and what came,
 * so a schema break reads as `ranked[2].docId: expected a string, got 42`.
 */

/** How a value looks in an error message: short JSON for scalars, its kind for objects and arrays. */
export function previewValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  if (value !== null && typeof value === 'object') return 'an object'
  const json = JSON.stringify(value)
  return json.length > 60 ? `${json.slice(0, 57)}...` : json
}

/** An error map for a wrong type: "missing; expected a string" or "expected a string, got 42". */
const expected = (what: string) => (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input === undefined
    ? `missing; expected ${what}`
    : `expected ${what}, got ${previewValue(issue.input)}`

/** A strict object whose unknown fields are named with the fields it allows (a typo must not pass silently). */
function strictObject<Shape extends z.ZodRawShape>(shape: Shape, what: string) {
  const allowed = Object.keys(shape).join(', ')
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; ` +
          `expected only ${allowed}`
        : `expected ${what}, got ${previewValue(issue.input)}`,
  })
}

const metadata = z
  .record(z.string(), z.unknown(), { error: expected('an object') })
  .optional()
  .describe('Anything else the service wants to carry (source URL, page, debug data); the suite ignores it')

export const HttpChunkSchema = strictObject(
  {
    docId: z
      .string({ error: expected('a string') })
      .min(1, 'expected a non-empty document id')
      .describe('The document the chunk comes from; golden answerDocIds use the same ids'),
    text: z
      .string({ error: expected('a string') })
      .describe('The chunk text, as handed to (or as it would be handed to) the model'),
    chunkId: z
      .string({ error: expected('a string') })
      .min(1, 'expected a non-empty chunk id')
      .optional()
      .describe('Stable chunk id; default `${docId}#${position in ranked}`'),
    score: z
      .number({ error: expected('a finite number') })
      .optional()
      .describe('Retrieval score, higher is better; only the order of `ranked` counts. Default: descending by position'),
    tokens: z
      .number({ error: expected('a whole number of tokens') })
      .int('expected a whole number of tokens')
      .nonnegative('expected a whole number of tokens, 0 or more')
      .optional()
      .describe("Chunk size in tokens; counted with the suite's tokenizer when absent"),
    metadata,
  },
  'a chunk object {"docId", "text", ...}',
)
export type HttpChunk = z.output<typeof HttpChunkSchema>

export const HttpRequestSchema = z
  .strictObject({
    id: z.string().describe('The golden question id, e.g. q-001'),
    question: z.string().describe('The question text'),
    userContext: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The golden question's userContext (tenant, role, permissions), verbatim; null when it has none"),
  })
  .describe('POST <url>, Content-Type: application/json: one golden question')
export type HttpRequest = z.output<typeof HttpRequestSchema>

const chunkList = z.array(HttpChunkSchema, { error: expected('an array of chunk objects') })

export const HttpResponseSchema = strictObject(
  {
    ranked: chunkList.describe('Every retrieved chunk, best first (the ranking that recall@k, MRR and nDCG read); may be empty'),
    context: chunkList
      .nullable()
      .optional()
      .describe(
        'The chunks actually handed to the model, in order; absent or null: the suite packs `ranked` within its token budget',
      ),
    answer: z
      .string({ error: expected('a string') })
      .nullable()
      .optional()
      .describe('The generated answer; absent or null: the service only retrieves and only retrieval metrics are computed'),
    timingsMs: strictObject(
      {
        retrieve: z
          .number({ error: expected('a number of milliseconds') })
          .nonnegative('expected 0 or more milliseconds')
          .optional(),
        generate: z
          .number({ error: expected('a number of milliseconds') })
          .nonnegative('expected 0 or more milliseconds')
          .optional(),
      },
      'an object {"retrieve"?, "generate"?}',
    )
      .optional()
      .describe('Time per stage as the service measured it; the suite measures the whole call regardless'),
    metadata,
  },
  'a JSON object {"ranked": [...], "context"?: [...], "answer"?: "..."}',
).describe('200 (any 2xx), Content-Type: application/json: what the service retrieved and answered')
export type HttpResponse = z.output<typeof HttpResponseSchema>

/** `ranked[2].docId` for the path [ 'ranked', 2, 'docId' ]; "the response" for the top level. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = ''
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`
  return text === '' ? 'the response' : text
}

/** Checks a parsed response body; on failure, one line per broken field (at most three, then how many more). */
export function checkHttpResponse(body: unknown): { ok: true; response: HttpResponse } | { ok: false; problems: string } {
  const result = HttpResponseSchema.safeParse(body)
  if (result.success) return { ok: true, response: result.data }
  const lines = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`)
  const shown = lines.slice(0, 3).join('; ')
  return { ok: false, problems: lines.length > 3 ? `${shown}; and ${lines.length - 3} more` : shown }
}

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
      'The suite POSTs one Request per golden question to the configured url and expects one Response. ' +
      'Generated from src/system/http-contract.ts; see docs/your-pipeline.md.',
    $defs: { Request: generate(HttpRequestSchema), Response: generate(HttpResponseSchema) },
  }
}
