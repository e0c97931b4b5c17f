import type { Metric } from '../contract/metrics/metric.ts'
import type { QuestionOutcome } from '../contract/question-outcome-schema.ts'
import type { ModelClient } from '../model/model-client.ts'
import type { z } from 'zod'
import { questionBlock } from '../model/delimit.ts'
import { renderUser, type ToolTemplate } from '../model/prompt-template.ts'
import { callStructured, type StructuredOutcome } from '../model/structured-call.ts'
import type { MetricResult } from '../scoring/generation/metric-result.ts'
import { round4 } from '../statistics/descriptive.ts'
import type { JudgeError, JudgeInput } from './judge.ts'

export interface ModelJudgeOptions {
  /** The judge model (EVAL_JUDGE_MODEL). */
  model: string
  /** max_tokens of a judge call (config judgeMaxTokens); a cut-off reply is repaired once with twice as many. */
  maxTokens: number
}

/**
 * One judge call about an answer, purpose `judge:<template id>`: the question block (with its history) first in the
 * user message and in the cache key, where a standalone question's key holds no history.
 */
export function askJudge<S extends z.ZodType>(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
  call: {
    template: ToolTemplate<S>
    blocks: Record<string, string>
    inputs: object
    check?: (output: z.output<S>) => string | null
  },
): Promise<StructuredOutcome<z.output<S>>> {
  return callStructured(client, {
    template: call.template,
    role: 'judge',
    subject: input.questionId,
    model: options.model,
    maxTokens: options.maxTokens,
    sample: input.repeat ?? 0,
    purpose: call.template.id.replace(/^judge-/, 'judge:'),
    user: renderUser(call.template, { question: questionBlock(input.question, input.history), ...call.blocks }),
    inputs: { question: input.question, ...(input.history === undefined ? {} : { history: input.history }), ...call.inputs },
    check: call.check,
  })
}

/** A verdict of the model judge, or its judge error (the verdict is then the dimension's `failed()`). */
export type Scored<R> = { result: R; error: JudgeError | null }

/**
 * What the model judge needs of one judge-derived metric: prompt, verdict schema, scoring, and what a verdict
 * records in the outcome. The offline scoring lives in offline-judge.ts, which loads no prompt.
 */
export interface JudgeDimension<M extends Metric = Metric, R extends MetricResult = MetricResult> {
  /** Its metric: the judgement's key is its name, the outcome's field its field. */
  readonly metric: M
  readonly prompt: ToolTemplate
  /** The model judge's verdict: one structured call, repaired once. */
  byModel(client: ModelClient, input: JudgeInput, options: ModelJudgeOptions): Promise<Scored<R>>
  /** The verdict of a judge error: no value, status judge-error. */
  failed(): R
  /** How the score came about (its status and counts, and what it rests on), kept as the outcome's generation detail. */
  detail(result: R): object
  /** Fields of the outcome the verdict sets besides the metric's value. */
  fields?(result: R): Partial<QuestionOutcome>
}

/** What a verdict adds to the question's outcome: the metric's value (4 decimals) and other fields, and its detail. */
export interface Recorded {
  fields: Partial<QuestionOutcome>
  detail: object
}

/** A dimension with its metric's and verdict's types kept, and `recorded` for the code that iterates dimensions. */
export function defineJudgeDimension<M extends Metric, R extends MetricResult>(
  dimension: JudgeDimension<M, R>,
): JudgeDimension<M, R> & { recorded(result: MetricResult): Recorded } {
  return {
    ...dimension,
    recorded(verdict) {
      // The judgement holds this dimension's own verdict under its metric's name (dimensions/index.ts's verdictsOf).
      const result = verdict as R
      const value = result.value === null ? null : round4(result.value)
      const fields = {
        ...(dimension.metric.field === null ? {} : { [dimension.metric.field]: value }),
        ...dimension.fields?.(result),
      }
      return { fields, detail: dimension.detail(result) }
    },
  }
}
