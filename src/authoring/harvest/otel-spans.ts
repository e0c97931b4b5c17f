import { z } from 'zod'
import { InputError } from '../../contract/input-error.ts'
import type { HistoryTurn } from '../../contract/golden-set-schema.ts'
import type { SourceRecord } from '../../files/read-records.ts'
import type { AskedQuestion } from './asked-question.ts'

// OTLP JSON (the collector's file exporter, an SDK's JSON exporter): spans of the OpenTelemetry GenAI semantic
// conventions. The question is the last user message of `gen_ai.input.messages` (on the span or on an event), or of
// the older per-message events `gen_ai.user.message` / `gen_ai.assistant.message` with a `content` attribute.

// Attribute values (AnyValue: stringValue, intValue, arrayValue, kvlistValue...) are read as plain values below.
const AttributesSchema = z.array(z.object({ key: z.string(), value: z.unknown() })).optional()
const SpanSchema = z.object({
  startTimeUnixNano: z.union([z.string(), z.number()]).optional(),
  attributes: AttributesSchema,
  events: z.array(z.object({ name: z.string(), attributes: AttributesSchema })).optional(),
  status: z.object({ code: z.union([z.number(), z.string()]).optional() }).optional(),
})

/** One OTLP export: resourceSpans -> scopeSpans -> spans. */
export const OtlpExportSchema = z.object({
  resourceSpans: z.array(z.object({ scopeSpans: z.array(z.object({ spans: z.array(SpanSchema).optional() })).optional() }), {
    error: 'expected resourceSpans, a list (an OTLP JSON trace export)',
  }),
})

/** An OTLP AnyValue as the plain value it holds (an array's values, a kvlist's object). */
function plain(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, { values?: { key?: string; value?: unknown }[] } | string | number | boolean>
  if (typeof v.arrayValue === 'object') return (v.arrayValue.values ?? []).map((item) => plain(item))
  if (typeof v.kvlistValue === 'object')
    return Object.fromEntries((v.kvlistValue.values ?? []).map((kv) => [kv.key, plain(kv.value)]))
  const scalar = v.stringValue ?? v.boolValue ?? v.doubleValue
  return v.intValue === undefined ? scalar : Number(v.intValue)
}

const attribute = (attributes: z.output<typeof AttributesSchema>, key: string) =>
  plain(attributes?.find((a) => a.key === key)?.value)

const Message = z.object({
  role: z.string(),
  parts: z.array(z.object({ type: z.string(), content: z.unknown().optional() })).optional(),
  content: z.unknown().optional(),
})

/** The conversation of gen_ai.input.messages (a JSON string or structured): text turns of the user and the assistant. */
function turnsOf(value: unknown, where: string): HistoryTurn[] {
  let parsed
  try {
    parsed = z.array(Message).safeParse(typeof value === 'string' ? JSON.parse(value) : value)
  } catch (error) {
    throw new InputError(`${where}: gen_ai.input.messages is not JSON (${(error as Error).message})`)
  }
  if (!parsed.success)
    throw new InputError(`${where}: gen_ai.input.messages: expected a list of {"role", "parts": [{"type": "text", "content"}]}`)
  return parsed.data.flatMap((m) => {
    const text = m.parts
      ? m.parts.flatMap((p) => (p.type === 'text' && typeof p.content === 'string' ? [p.content] : [])).join('\n')
      : typeof m.content === 'string'
        ? m.content
        : ''
    return (m.role === 'user' || m.role === 'assistant') && text.trim() !== '' ? [{ role: m.role, content: text.trim() }] : []
  })
}

type Span = z.output<typeof SpanSchema>

function spanTurns(span: Span, where: string): HistoryTurn[] {
  const messages =
    attribute(span.attributes, 'gen_ai.input.messages') ??
    span.events?.map((e) => attribute(e.attributes, 'gen_ai.input.messages')).find((v) => v !== undefined)
  if (messages !== undefined) return turnsOf(messages, where)
  const roles = { 'gen_ai.user.message': 'user', 'gen_ai.assistant.message': 'assistant' } as const
  return (span.events ?? []).flatMap((e) => {
    const content = attribute(e.attributes, 'content')
    const role = roles[e.name as keyof typeof roles]
    return role && typeof content === 'string' && content.trim() !== '' ? [{ role, content: content.trim() }] : []
  })
}

/** The questions of one OTLP export: a span whose last message is the user's; its status ERROR marks a system error. */
export function spanQuestions(exported: z.output<typeof OtlpExportSchema>, source: SourceRecord, file: string): AskedQuestion[] {
  return exported.resourceSpans.flatMap((resource, r) =>
    (resource.scopeSpans ?? []).flatMap((scope, s) =>
      (scope.spans ?? []).flatMap((span, i): AskedQuestion[] => {
        const line = source.lineOf(['resourceSpans', r, 'scopeSpans', s, 'spans', i])
        const turns = spanTurns(span, `${file}:${line}`)
        const last = turns.at(-1)
        if (last?.role !== 'user') return []
        const error = span.status?.code === 2 || span.status?.code === 'STATUS_CODE_ERROR'
        const nanos = span.startTimeUnixNano === undefined ? undefined : BigInt(span.startTimeUnixNano)
        return [
          {
            question: last.content,
            history: turns.length > 1 ? turns.slice(0, -1) : undefined,
            flag: error || attribute(span.attributes, 'error.type') !== undefined ? 'system error' : null,
            askedAt: nanos === undefined ? undefined : new Date(Number(nanos / 1_000_000n)).toISOString(),
            file,
            line,
          },
        ]
      }),
    ),
  )
}
