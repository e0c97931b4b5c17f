import { z } from 'zod'
import { HistorySchema, UserContextSchema } from '../../contract/golden-set-schema.ts'
import { ErrorFieldSchema, FeedbackSchema, flagOf, type AskedQuestion } from './asked-question.ts'

// Phoenix and LangSmith datasets hold examples of {inputs, outputs, metadata}: Phoenix names them input, output,
// metadata (its CSV download: example_id, input_<key>, output_<key>, metadata_<key>); LangSmith inputs, outputs,
// metadata (its CSV: the same three columns, each a JSON object).

/** The input keys a question is read from, in this order; else the last user message of `messages`. */
export const QUESTION_KEYS = ['question', 'query', 'input', 'user_input'] as const

const Json = z.record(z.string(), z.unknown())
const Metadata = z.object({ feedback: FeedbackSchema, error: ErrorFieldSchema }).optional()
const Example = z.object({ input: Json, output: Json.nullable().optional(), metadata: Metadata, at: z.string().optional() })

/** A JSON column of a CSV row, parsed; a field that is not JSON stays the string it is. */
function cell(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/** Phoenix's example: the JSON record, or a CSV row whose input_/output_/metadata_ columns are gathered. */
export const PhoenixExampleSchema = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null || 'input' in raw) {
    const { updated_at: at, ...rest } = (raw ?? {}) as Record<string, unknown>
    return { ...rest, at }
  }
  const prefixed = (prefix: string) =>
    Object.fromEntries(
      Object.entries(raw)
        .filter(([key, value]) => key.startsWith(prefix) && value !== '')
        .map(([key, value]) => [key.slice(prefix.length), cell(value)]),
    )
  return { input: prefixed('input_'), output: prefixed('output_'), metadata: prefixed('metadata_') }
}, Example)

/** LangSmith's example: {inputs, outputs, metadata, created_at}, as JSON or as JSON columns of a CSV row. */
export const LangSmithExampleSchema = z.preprocess((raw) => {
  const r = (raw ?? {}) as Record<string, unknown>
  return {
    input: cell(r.inputs),
    output: cell(r.outputs) || undefined,
    metadata: cell(r.metadata) || undefined,
    at: r.created_at,
  }
}, Example)

export function exampleQuestion(example: z.output<typeof Example>, file: string, line: number): AskedQuestion | string {
  const { input } = example
  const key = QUESTION_KEYS.find((k) => typeof input[k] === 'string' && input[k].trim() !== '')
  const messages = z.array(z.object({ role: z.string(), content: z.string() })).safeParse(input.messages)
  const asked = key
    ? (input[key] as string)
    : messages.success
      ? messages.data.findLast((m) => m.role === 'user')?.content
      : undefined
  if (asked === undefined) return `the input has no question: expected ${QUESTION_KEYS.join(', ')} (a string) or messages`
  const history = HistorySchema.safeParse(input.history)
  const userContext = UserContextSchema.safeParse(input.userContext)
  const answer = Object.values(example.output ?? {}).find((v) => typeof v === 'string')
  return {
    question: asked.trim(),
    history: history.success ? history.data : undefined,
    userContext: userContext.success ? userContext.data : undefined,
    answer: typeof answer === 'string' ? answer : undefined,
    flag: flagOf(example.metadata?.feedback, example.metadata?.error),
    askedAt: example.at,
    file,
    line,
  }
}
