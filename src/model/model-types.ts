import type Anthropic from '@anthropic-ai/sdk'
import { z } from 'zod'
import type { ModelRole } from '../contract/model-usage-schema.ts'

/** Response header by which a scripted server (the local test server) marks its responses as not a real model's. */
export const SCRIPTED_HEADER = 'x-scripted-by'

/** A Messages API request as sent (non-streaming). */
export type MessageRequest = Anthropic.MessageCreateParamsNonStreaming

/** Tokens of one response, as billed: cache reads and writes apart from plain input. */
export const ModelUsageSchema = z.object({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
  cacheWriteTokens: z.number().int().min(0),
})
export type ModelUsage = z.infer<typeof ModelUsageSchema>

const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() })
const ToolUseBlockSchema = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() })
/** Any other block (thinking, server tools): kept by kind only, never read. */
const OtherBlockSchema = z.object({ type: z.literal('other'), kind: z.string() })
export const ContentBlockSchema = z.discriminatedUnion('type', [TextBlockSchema, ToolUseBlockSchema, OtherBlockSchema])
export type ContentBlock = z.infer<typeof ContentBlockSchema>

/** The SDK's Message reduced to what is read, so stored responses do not depend on the SDK version. */
export const ModelResponseSchema = z.object({
  id: z.string(),
  model: z.string(),
  stopReason: z.string().nullable(),
  content: z.array(ContentBlockSchema),
  usage: ModelUsageSchema,
})
export type ModelResponse = z.infer<typeof ModelResponseSchema>

/** The fields of a Messages API response body this tool reads, validated before use. */
const WireMessageSchema = z.object({
  id: z.string(),
  type: z.literal('message'),
  model: z.string(),
  stop_reason: z.string().nullable(),
  content: z.array(z.looseObject({ type: z.string() })),
  usage: z.looseObject({
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    cache_read_input_tokens: z.number().int().min(0).nullish(),
    cache_creation_input_tokens: z.number().int().min(0).nullish(),
  }),
})

/** Raised when a response body is not a Messages API message: names what is wrong. */
export class MalformedResponseError extends Error {
  override name = 'MalformedResponseError'
}

/** `body` as `schema` reads it; a MalformedResponseError naming the first problem (`whole`: the body's name) otherwise. */
export function parseWire<S extends z.ZodType>(schema: S, body: unknown, what: string, whole: string): z.output<S> {
  const parsed = schema.safeParse(body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw new MalformedResponseError(`malformed ${what}: ${issue.path.join('.') || whole}: ${issue.message}`)
}

/** Validates a Messages API response body and reduces it to a ModelResponse. */
export function normaliseMessage(body: unknown): ModelResponse {
  const message = parseWire(WireMessageSchema, body, 'Messages API response', '(body)')
  const content: ContentBlock[] = message.content.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text }
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input }
    return { type: 'other', kind: block.type }
  })
  return {
    id: message.id,
    model: message.model,
    stopReason: message.stop_reason,
    content,
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
    },
  }
}

/** The text of a response's text blocks, joined. */
export function responseText(response: ModelResponse): string {
  return response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
}

/** One model call: the request and what it is for; every part feeds the cache key (callKey). */
export interface ModelCall {
  role: ModelRole
  /** What the call is about, named in errors and recordings: the question id. */
  subject: string
  /** What the call does, e.g. "generate" or "judge:faithfulness" (":repair" for a repair attempt). */
  purpose: string
  /** Hash of the prompt template (system prompt, user template, tool). */
  templateHash: string
  /** Hash of the structured output's JSON Schema; null for free text. */
  schemaHash: string | null
  /** The values filled into the template (question, answer, material...). */
  inputs: unknown
  /** Sample index: 0 unless the same request is deliberately sampled several times. */
  sample: number
  request: MessageRequest
  /** Whether a response may be kept in (or served from) the cache: a malformed output is not, so a rerun asks again. */
  cacheable?: (response: ModelResponse) => boolean
}

/** Where a response came from: the API, the local disk cache, or a recording (replay). */
export type ResponseSource = 'api' | 'cache' | 'recording'

export interface ModelResult {
  response: ModelResponse
  source: ResponseSource
  /** Wall time of the call from its first attempt to its response, retries included; null unless from the API. */
  latencyMs: number | null
  /** Retries it took (0 when the first attempt answered). */
  retries: number
  /** USD of this call (0 unless from the API). */
  usd: number
  /** The response came from a scripted server (the local test server), not a model. */
  scripted: boolean
  /** Answered through the Message Batches API (EVAL_BATCH=1), at the batch price. */
  batch: boolean
}
