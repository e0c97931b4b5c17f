import { z } from 'zod'
import { normaliseMessage, parseWire, SCRIPTED_HEADER, type MessageRequest, type ModelResponse } from './model-types.ts'
import { anthropicClient, sdkCall } from './sdk-transport.ts'

/** A Message Batch as polled: its processing status and the count of its requests per state. */
export interface BatchStatus {
  id: string
  status: 'in_progress' | 'canceling' | 'ended'
  counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number }
}

/** One request's result in an ended batch. */
export type BatchItemResult =
  | { customId: string; type: 'succeeded'; response: ModelResponse }
  | { customId: string; type: 'errored'; errorType: string; message: string }
  | { customId: string; type: 'expired' | 'canceled' }

/** The Message Batches API, one HTTP request per method, no retries (the batch queue's retry policy decides). */
export interface BatchTransport {
  create(
    requests: readonly { customId: string; request: MessageRequest }[],
    timeoutMs: number,
  ): Promise<{ status: BatchStatus; scripted: boolean }>
  retrieve(id: string, timeoutMs: number): Promise<BatchStatus>
  results(id: string, timeoutMs: number): Promise<BatchItemResult[]>
}

const BatchSchema = z.object({
  id: z.string(),
  processing_status: z.enum(['in_progress', 'canceling', 'ended']),
  request_counts: z.object({
    processing: z.number(),
    succeeded: z.number(),
    errored: z.number(),
    canceled: z.number(),
    expired: z.number(),
  }),
})

const ResultLineSchema = z.object({
  custom_id: z.string(),
  result: z.discriminatedUnion('type', [
    z.object({ type: z.literal('succeeded'), message: z.unknown() }),
    z.object({
      type: z.literal('errored'),
      error: z.looseObject({ error: z.looseObject({ type: z.string(), message: z.string() }).optional() }),
    }),
    z.object({ type: z.literal('expired') }),
    z.object({ type: z.literal('canceled') }),
  ]),
})

function statusOf(body: unknown): BatchStatus {
  const batch = parseWire(BatchSchema, body, 'Message Batch', '(body)')
  return { id: batch.id, status: batch.processing_status, counts: batch.request_counts }
}

/** Validates one line of a batch's results file; a succeeded line whose message is malformed counts as errored. */
export function resultOf(line: unknown): BatchItemResult {
  const { custom_id: customId, result } = parseWire(ResultLineSchema, line, 'Message Batch result line', '(line)')
  switch (result.type) {
    case 'succeeded':
      try {
        return { customId, type: 'succeeded', response: normaliseMessage(result.message) }
      } catch (error) {
        return { customId, type: 'errored', errorType: 'malformed_message', message: (error as Error).message }
      }
    case 'errored':
      return {
        customId,
        type: 'errored',
        errorType: result.error.error?.type ?? 'unknown_error',
        message: result.error.error?.message ?? 'no message',
      }
    case 'canceled':
    case 'expired':
      return { customId, type: result.type }
  }
}

/** The Message Batches API through the official SDK (client.messages.batches.create / retrieve / results), its own retries off. */
export function createSdkBatchTransport(options: { apiKey: string; baseURL: string }): BatchTransport {
  const client = anthropicClient(options)
  const batches = <T>(call: () => Promise<T>) => sdkCall('Message Batches API', call)
  return {
    create: (requests, timeoutMs) =>
      batches(async () => {
        const { data, response } = await client.messages.batches
          .create(
            { requests: requests.map((r) => ({ custom_id: r.customId, params: r.request })) },
            { timeout: timeoutMs, maxRetries: 0 },
          )
          .withResponse()
        return { status: statusOf(data), scripted: response.headers.get(SCRIPTED_HEADER) !== null }
      }),
    retrieve: (id, timeoutMs) =>
      batches(async () => statusOf(await client.messages.batches.retrieve(id, {}, { timeout: timeoutMs, maxRetries: 0 }))),
    results: (id, timeoutMs) =>
      batches(async () => {
        const lines: BatchItemResult[] = []
        for await (const line of await client.messages.batches.results(id, {}, { timeout: timeoutMs, maxRetries: 0 }))
          lines.push(resultOf(line))
        return lines
      }),
  }
}
