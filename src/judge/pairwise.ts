import type { ModelClient } from '../model/model-client.ts'
import { block, materialBlock } from '../model/delimit.ts'
import { renderUser } from '../model/prompt-template.ts'
import type { ContextPassage } from '../scoring/generation/context-passage.ts'
import { PAIRWISE_PROMPT } from './prompts/pairwise-prompt.ts'
import { callStructured } from '../model/structured-call.ts'
import type { ModelJudgeOptions } from './judge-dimension.ts'

export interface PairwiseInput {
  questionId: string
  question: string
  context: readonly ContextPassage[]
  /** The two answers to compare, e.g. the baseline system's and a candidate's. */
  first: string
  second: string
}

/** One order's preference, in terms of the two answers (not of the A/B positions). */
export interface OrderVerdict {
  order: 'first-as-A' | 'second-as-A'
  preferred: 'first' | 'second' | 'tie' | null
  reason: string
}

export interface PairwiseResult {
  /** first / second when both orders prefer it; draw on disagreement or a tie; judge-error when an order has no output. */
  winner: 'first' | 'second' | 'draw' | 'judge-error'
  orders: [OrderVerdict, OrderVerdict]
}

/** Compares two answers with the model judge in both orders, so position bias cannot decide: a win must hold in both. */
export async function comparePairwise(
  client: ModelClient,
  input: PairwiseInput,
  options: ModelJudgeOptions,
): Promise<PairwiseResult> {
  const ask = async (order: OrderVerdict['order']): Promise<OrderVerdict> => {
    const [a, b] = order === 'first-as-A' ? [input.first, input.second] : [input.second, input.first]
    const outcome = await callStructured(client, {
      template: PAIRWISE_PROMPT,
      role: 'judge',
      subject: input.questionId,
      purpose: `judge:pairwise:${order}`,
      model: options.model,
      maxTokens: options.maxTokens,
      user: renderUser(PAIRWISE_PROMPT, {
        question: block('question', input.question),
        material: materialBlock(input.context),
        answerA: block('answer_a', a),
        answerB: block('answer_b', b),
      }),
      inputs: { question: input.question, a, b, context: input.context.map(({ chunkId, text }) => ({ chunkId, text })) },
    })
    if (!outcome.ok) return { order, preferred: null, reason: `judge error: ${outcome.error}` }
    const { winner, reason } = outcome.output
    const preferred = winner === 'tie' ? 'tie' : (winner === 'A') === (order === 'first-as-A') ? 'first' : 'second'
    return { order, preferred, reason }
  }
  const orders = await Promise.all([ask('first-as-A'), ask('second-as-A')])
  const [one, two] = orders
  if (one.preferred === null || two.preferred === null) return { winner: 'judge-error', orders }
  const winner = one.preferred === two.preferred && one.preferred !== 'tie' ? one.preferred : 'draw'
  return { winner, orders }
}
