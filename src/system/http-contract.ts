import { z } from 'zod'
import { HistorySchema } from '../contract/history-schema.ts'
import { DocumentAccessSchema } from '../contract/access-schema.ts'

/**
 * The HTTP contract with a user's RAG service (docs/your-pipeline.md), its single source of truth: responses and
 * in-process answers are checked by it, and docs/http-contract.schema.json is generated from it.
 */

/** How a value looks in an error message: short JSON for scalars, its kind for objects and arrays. */
export function previewValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  if (value !== null && typeof value === 'object') return 'an object'
  // What JSON has no text for, as an in-process answer may hold: NaN, Infinity, a function, a bigint, a symbol.
  if (typeof value === 'function') return 'a function'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'symbol' || (typeof value === 'number' && !Number.isFinite(value))) return String(value)
  const json = JSON.stringify(value)
  return json.length > 60 ? `${json.slice(0, 57)}...` : json
}

/** An error map for a wrong type: "missing; expected a string" or "expected a string, got 42". */
const expected = (what: string) => (issue: { code?: string; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.input === undefined
    ? `missing; expected ${what}`
    : `expected ${what}, got ${previewValue(issue.input)}`

/**
 * Unnamed fields: a service's JSON is rejected for them (a typo must not pass silently); an in-process
 * system's objects often carry more (a database row), their names checked by the compiler, so they are dropped.
 */
type UnknownFields = 'reject' | 'drop'

/** An object of the contract; with 'reject', its unknown fields are named with the fields it allows. */
function contractObject<Shape extends z.ZodRawShape>(shape: Shape, what: string, unknownFields: UnknownFields) {
  const allowed = Object.keys(shape).join(', ')
  const error = (issue: { code?: string; input?: unknown; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' && issue.keys
      ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; expected only ${allowed}`
      : `expected ${what}, got ${previewValue(issue.input)}`
  return unknownFields === 'reject' ? z.strictObject(shape, { error }) : z.object(shape, { error })
}

const metadata = z
  .record(z.string(), z.unknown(), { error: expected('an object') })
  .optional()
  .describe('Anything else the service wants to carry (source URL, page, debug data); the suite ignores it')

function chunkSchema(unknownFields: UnknownFields) {
  return contractObject(
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
        .describe('Stable chunk id, unique within `ranked`; default `${docId}#${position in ranked}`'),
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
    unknownFields,
  )
}

/** A ranked chunk's id: its own, else `${docId}#${position}` (the default the suite gives it). */
export const rankedChunkId = (item: { chunkId?: string | undefined; docId: string }, position: number, prefix = '') =>
  item.chunkId ?? `${item.docId}#${prefix}${position}`

/** A ranking: chunks best first, each chunk id once (chunk-level nDCG@10 would count a chunk ranked twice twice). */
function rankingSchema(unknownFields: UnknownFields) {
  return z.array(chunkSchema(unknownFields), { error: expected('an array of chunk objects') }).superRefine((items, context) => {
    const firstAt = new Map<string, number>()
    items.forEach((item, position) => {
      const id = rankedChunkId(item, position)
      const first = firstAt.get(id)
      if (first === undefined) firstAt.set(id, position)
      else
        context.addIssue({
          code: 'custom',
          path: [position, 'chunkId'],
          message: `${JSON.stringify(id)} is ranked twice (first as ranked[${first}]); each chunk is ranked once`,
        })
    })
  })
}

const milliseconds = () =>
  z
    .number({ error: expected('a number of milliseconds') })
    .nonnegative('expected 0 or more milliseconds')
    .optional()

function stageSchema(unknownFields: UnknownFields) {
  return contractObject(
    {
      name: z
        .string({ error: expected('a string') })
        .min(1, 'expected a non-empty stage name')
        .describe('The stage, e.g. "retrieve" or "rerank"; a name may repeat (an agentic pipeline retrieving three times)'),
      ranked: rankingSchema(unknownFields).describe("The stage's output, best first; a chunk id appears once"),
      query: z
        .string({ error: expected('a string') })
        .optional()
        .describe('The query the stage ran, when it is not the question (a rewritten query)'),
      latencyMs: milliseconds().describe('Time the stage took'),
    },
    'a stage object {"name", "ranked": [...], "query"?, "latencyMs"?}',
    unknownFields,
  )
}

function citationSchema(unknownFields: UnknownFields) {
  const offset = (what: string) =>
    z
      .number({ error: expected(`a character offset`) })
      .int('expected a whole character offset')
      .nonnegative('expected a character offset, 0 or more')
      .describe(what)
  return contractObject(
    {
      start: offset("Where the cited span of `answer` starts (UTF-16 code units, as JavaScript's string indexes)"),
      end: offset('Where it ends, exclusive'),
      chunkIds: z
        .array(z.string({ error: expected('a string') }).min(1, 'expected a non-empty chunk id'), {
          error: expected('an array of chunk ids'),
        })
        .min(1, 'expected at least one cited chunk id')
        .describe('The cited chunks, by the chunk ids of `context`'),
    },
    'a citation object {"start", "end", "chunkIds": [...]}',
    unknownFields,
  )
}

/** The response (or in-process answer) schema: `ranked`, `context`, `stages`, `answer`, `citations`, `prompt`, `access`, `timingsMs`, `metadata`. */
function answerSchema(unknownFields: UnknownFields) {
  return contractObject(
    {
      ranked: rankingSchema(unknownFields).describe(
        "Every retrieved chunk, best first (the ranking that recall@k, MRR and nDCG read; with stages, the last stage's output); may be empty; a chunk id appears once",
      ),
      context: z
        .array(chunkSchema(unknownFields), { error: expected('an array of chunk objects') })
        .nullable()
        .optional()
        .describe(
          'The chunks actually handed to the model, in order; absent or null: the suite packs `ranked` within its token budget',
        ),
      stages: z
        .array(stageSchema(unknownFields), { error: expected('an array of stage objects') })
        .optional()
        .describe(
          "The pipeline's stages in order (retrieve, rerank, ...), each with its own ranking, which the per-stage metrics and the loss funnel read. `ranked` stays the final ranking",
        ),
      answer: z
        .string({ error: expected('a string') })
        .nullable()
        .optional()
        .describe('The generated answer; absent or null: the service only retrieves and only retrieval metrics are computed'),
      citations: z
        .array(citationSchema(unknownFields), { error: expected('an array of citation objects') })
        .optional()
        .describe(
          "The answer's citations as spans of its text; absent: `[n]` markers in the answer cite the n-th chunk of the context (1-based)",
        ),
      prompt: z
        .string({ error: expected('a string') })
        .optional()
        .describe('The prompt the model was given; kept in the attribution log of failing questions'),
      access: z
        .record(z.string(), DocumentAccessSchema, { error: expected('an object of document id -> {"tenants"?, "roles"?}') })
        .optional()
        .describe(
          'A service that owns its documents (corpus: null): who may read each document it returned, by id: {"tenants"?: [...], "roles"?: [...]}; the suite checks every question with a userContext against it',
        ),
      timingsMs: contractObject(
        { retrieve: milliseconds(), generate: milliseconds() },
        'an object {"retrieve"?, "generate"?}',
        unknownFields,
      )
        .optional()
        .describe('Time per stage as the service measured it; the suite measures the whole call regardless'),
      metadata,
    },
    `${unknownFields === 'reject' ? 'a JSON object' : 'an object'} {"ranked": [...], "context"?: [...], "answer"?: "..."}`,
    unknownFields,
  ).superRefine((response, context) => {
    // A span must lie within the answer it cites from.
    const length = response.answer?.length ?? null
    response.citations?.forEach((citation, index) => {
      const problem =
        length === null
          ? 'a citation needs an answer to cite from'
          : citation.end <= citation.start
            ? `expected end after start, got start ${citation.start} and end ${citation.end}`
            : citation.end > length
              ? `end ${citation.end} is past the answer's ${length} characters`
              : null
      if (problem !== null) context.addIssue({ code: 'custom', path: ['citations', index], message: problem })
    })
  })
}

export const HttpChunkSchema = chunkSchema('reject')
export type HttpChunk = z.output<typeof HttpChunkSchema>

export const HttpRequestSchema = z
  .strictObject({
    id: z.string().describe('The golden question id, e.g. q-001'),
    question: z.string().describe('The question text'),
    userContext: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The golden question's userContext (tenant, role, permissions), verbatim; null when it has none"),
    history: HistorySchema.optional().describe(
      "A follow-up question's conversation before it, oldest first, as [{role: user | assistant, content}]; absent for a standalone question (a service that ignores it answers the question alone)",
    ),
  })
  .describe('POST <url>, Content-Type: application/json: one golden question')
export type HttpRequest = z.output<typeof HttpRequestSchema>

export const HttpResponseSchema = answerSchema('reject').describe(
  '200 (any 2xx), Content-Type: application/json: what the service retrieved and answered',
)
export type HttpResponse = z.output<typeof HttpResponseSchema>

/** The same contract for what an in-process system's answer() resolves to, its extra fields dropped. */
const InProcessAnswerSchema = answerSchema('drop')

/** `ranked[2].docId` for the path [ 'ranked', 2, 'docId' ]; `whole` for the top level. */
function formatPath(path: readonly PropertyKey[], whole: string): string {
  let text = ''
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `${text === '' ? '' : '.'}${String(key)}`
  return text === '' ? whole : text
}

type Checked = { ok: true; response: HttpResponse } | { ok: false; problems: string }

/** One line per broken field (at most three, then how many more). */
function checked(result: z.ZodSafeParseResult<HttpResponse>, whole: string): Checked {
  if (result.success) return { ok: true, response: result.data }
  const lines = result.error.issues.map((issue) => `${formatPath(issue.path, whole)}: ${issue.message}`)
  const shown = lines.slice(0, 3).join('; ')
  return { ok: false, problems: lines.length > 3 ? `${shown}; and ${lines.length - 3} more` : shown }
}

/** Checks a parsed response body; on failure, one line per broken field (at most three, then how many more). */
export function checkHttpResponse(body: unknown): Checked {
  return checked(HttpResponseSchema.safeParse(body), 'the response')
}

/** Checks what an in-process system's answer() resolved to, by the HTTP response's rules but for its extra fields. */
export function checkInProcessAnswer(value: unknown): Checked {
  return checked(InProcessAnswerSchema.safeParse(value), 'the answer')
}
