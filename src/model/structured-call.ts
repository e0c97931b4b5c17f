import type Anthropic from '@anthropic-ai/sdk'
import type { z } from 'zod'
import { type ModelClient } from './model-client.ts'
import { BatchItemError } from './model-errors.ts'
import type { ModelRole } from '../contract/model-usage-schema.ts'
import type { MessageRequest, ModelResponse } from './model-types.ts'
import { outputSchemaHash, templateHash, toolInputSchema, type ToolTemplate } from './prompt-template.ts'

export interface StructuredCallSpec<S extends z.ZodType> {
  template: ToolTemplate<S>
  role: ModelRole
  /** The question id: named in errors and recordings. */
  subject: string
  /** e.g. "judge:faithfulness"; the repair attempt is "<purpose>:repair". */
  purpose: string
  model: string
  maxTokens: number
  /** The rendered user message. */
  user: string
  /** The values the user message was rendered from (part of the cache key). */
  inputs: unknown
  /** The sample index (part of the cache key): the judge's repeat, 0 unless the same call is deliberately made again. */
  sample?: number
  /** Checks the validated output beyond its schema (e.g. one verdict per claim); returns the problem or null. */
  check?: (output: z.output<S>) => string | null
}

/** The validated output, or why there is none after the repair attempt (a judge_error, never a score). */
export type StructuredOutcome<T> = { ok: true; output: T; repaired: boolean } | { ok: false; error: string }

/**
 * No temperature: SDK 1.x has none and newer models reject it (HTTP 400). Repeatability comes instead from the cache,
 * the recordings, forced tool use and outputs confined to enums and anchors.
 */
export function toolRequest(template: ToolTemplate, model: string, maxTokens: number, user: string): MessageRequest {
  return {
    model,
    max_tokens: maxTokens,
    system: [{ type: 'text', text: template.system, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: user }],
    tools: [
      {
        name: template.tool.name,
        description: template.tool.description,
        input_schema: toolInputSchema(template.tool.schema) as Anthropic.Tool.InputSchema,
      },
    ],
    tool_choice: { type: 'tool', name: template.tool.name, disable_parallel_tool_use: true },
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('; ')
}

type Attempt<T> = { ok: true; output: T } | { ok: false; problem: string; cutOff: boolean; final?: boolean }

/**
 * One structured call by forced tool use, validated with the zod schema. A cut-off or invalid output gets one repair
 * attempt; a refused batch item (BatchItemError) is an error at once, as a repair would send the same request.
 */
export async function callStructured<S extends z.ZodType>(
  client: ModelClient,
  spec: StructuredCallSpec<S>,
): Promise<StructuredOutcome<z.output<S>>> {
  /** The response's tool call, validated; a cut-off, missing or invalid one is a problem (and is never cached). */
  const validated = (response: ModelResponse, maxTokens: number): Attempt<z.output<S>> => {
    if (response.stopReason === 'max_tokens')
      return { ok: false, problem: `output cut off at max_tokens (${maxTokens})`, cutOff: true }
    const call = response.content.find((block) => block.type === 'tool_use' && block.name === spec.template.tool.name)
    if (!call || call.type !== 'tool_use')
      return {
        ok: false,
        problem: `no call of ${spec.template.tool.name} (stop reason ${response.stopReason ?? 'none'})`,
        cutOff: false,
      }
    const parsed = spec.template.tool.schema.safeParse(call.input)
    if (!parsed.success)
      return { ok: false, problem: `invalid ${spec.template.tool.name} input: ${describeIssues(parsed.error)}`, cutOff: false }
    const problem = spec.check?.(parsed.data) ?? null
    return problem === null ? { ok: true, output: parsed.data } : { ok: false, problem, cutOff: false }
  }
  const attempt = async (purpose: string, maxTokens: number, user: string): Promise<Attempt<z.output<S>>> => {
    const request = toolRequest(spec.template, spec.model, maxTokens, user)
    try {
      const { response } = await client.call({
        role: spec.role,
        subject: spec.subject,
        purpose,
        templateHash: templateHash(spec.template),
        schemaHash: outputSchemaHash(spec.template),
        inputs: spec.inputs,
        sample: spec.sample ?? 0,
        request,
        cacheable: (response) => validated(response, maxTokens).ok,
      })
      return validated(response, maxTokens)
    } catch (error) {
      // A Message Batches item the API refused: the same request would be refused again, so no repair either.
      if (error instanceof BatchItemError) return { ok: false, problem: error.message, cutOff: false, final: true }
      throw error
    }
  }

  const first = await attempt(spec.purpose, spec.maxTokens, spec.user)
  if (first.ok) return { ok: true, output: first.output, repaired: false }
  if (first.final) return { ok: false, error: first.problem }
  const note = first.cutOff
    ? `Your previous reply was cut off at the token limit before the ${spec.template.tool.name} call was ` +
      `complete. Call ${spec.template.tool.name} again, with shorter reasons.`
    : `Your previous call of ${spec.template.tool.name} was rejected: ${first.problem}. ` +
      `Call ${spec.template.tool.name} again with a corrected input that follows its schema.`
  const second = await attempt(
    `${spec.purpose}:repair`,
    first.cutOff ? spec.maxTokens * 2 : spec.maxTokens,
    `${spec.user}\n\n${note}`,
  )
  if (second.ok) return { ok: true, output: second.output, repaired: true }
  return { ok: false, error: `${first.problem}; after one repair attempt: ${second.problem}` }
}
