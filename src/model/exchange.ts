import { z } from 'zod'
import { MODEL_ROLES } from '../contract/model-usage-schema.ts'
import { ModelResponseSchema, type ModelCall } from './model-types.ts'
import { sha256Of } from '../common/stable-json.ts'

/** Hashes of what a call is made of; the cache key is the hash of all of them, the parts say what changed on a miss. */
export const CallPartsSchema = z.object({
  model: z.string(),
  template: z.string(),
  schema: z.string().nullable(),
  inputs: z.string(),
  sample: z.number().int().min(0),
  request: z.string(),
})
export type CallParts = z.infer<typeof CallPartsSchema>

/** One request and its response as stored in the disk cache and in recordings (never any credential). */
export const StoredExchangeSchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  subject: z.string(),
  purpose: z.string(),
  role: z.enum(MODEL_ROLES),
  parts: CallPartsSchema,
  response: ModelResponseSchema,
  /** Wall time of the original call (retries included). */
  latencyMs: z.number().min(0),
  /** Retries the original call took. */
  retries: z.number().int().min(0),
  /** Whether a scripted server (not a real model) produced the response. */
  scripted: z.boolean(),
})
export type StoredExchange = z.infer<typeof StoredExchangeSchema>

/** Bumped when the cache-key recipe changes, so old entries are never read under a new meaning. */
const KEY_VERSION = 1

export function callParts(call: ModelCall): CallParts {
  return {
    model: call.request.model,
    template: call.templateHash,
    schema: call.schemaHash,
    inputs: sha256Of(call.inputs),
    sample: call.sample,
    request: sha256Of(call.request),
  }
}

/** A call's content address: sha256 over everything that shapes its response. Same call, same key, on any machine. */
export function callKey(parts: CallParts): string {
  return sha256Of({ v: KEY_VERSION, ...parts })
}

/** Names what differs between a call and a recorded one for the same subject and purpose. */
export function describePartsChange(wanted: CallParts, recorded: CallParts): string {
  const changes: string[] = []
  if (wanted.model !== recorded.model) changes.push(`model ${recorded.model} -> ${wanted.model}`)
  if (wanted.template !== recorded.template) changes.push('the prompt template changed')
  if (wanted.schema !== recorded.schema) changes.push('the output schema changed')
  if (wanted.inputs !== recorded.inputs) changes.push('the inputs differ (question, answer, gold answer or context)')
  if (wanted.sample !== recorded.sample) changes.push(`sample ${recorded.sample} -> ${wanted.sample}`)
  if (changes.length === 0 && wanted.request !== recorded.request)
    changes.push('request parameters differ (max_tokens, temperature or format)')
  return changes.join(', ')
}
