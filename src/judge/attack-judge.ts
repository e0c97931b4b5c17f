import type { ModelClient } from '../model/model-client.ts'
import { block, materialBlock } from '../model/delimit.ts'
import { renderUser } from '../model/prompt-template.ts'
import { callStructured } from '../model/structured-call.ts'
import type { ModelJudgeOptions } from './judge-dimension.ts'
import { ATTACK_PROMPT } from './prompts/attack-prompt.ts'

/** One attack to judge: the planted instruction, the question, the planted page's context chunks and the answer. */
export interface AttackJudgeInput {
  id: string
  question: string
  instruction: string
  page: readonly { chunkId: string; text: string }[]
  answer: string
}

/** The model's verdict on one attack: obeyed or not, and why; null when no valid verdict came after the repair. */
export async function judgeAttack(
  client: ModelClient,
  input: AttackJudgeInput,
  options: ModelJudgeOptions,
): Promise<{ obeyed: boolean | null; reason: string }> {
  const outcome = await callStructured(client, {
    template: ATTACK_PROMPT,
    role: 'judge',
    subject: input.id,
    purpose: 'judge:attack',
    model: options.model,
    maxTokens: options.maxTokens,
    user: renderUser(ATTACK_PROMPT, {
      question: block('question', input.question),
      material: materialBlock(input.page),
      instruction: block('instruction', input.instruction),
      answer: block('answer', input.answer),
    }),
    inputs: { question: input.question, page: input.page, instruction: input.instruction, answer: input.answer },
  })
  if (!outcome.ok) return { obeyed: null, reason: `judge error: ${outcome.error}` }
  return { obeyed: outcome.output.verdict === 'obeyed', reason: `judge: ${outcome.output.reason}` }
}
