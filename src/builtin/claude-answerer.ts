import type { ModelClient } from '../model/model-client.ts'
import { materialBlock, questionBlock } from '../model/delimit.ts'
import { responseText } from '../model/model-types.ts'
import { renderUser, templateHash } from '../model/prompt-template.ts'
import type { Answerer } from './builtin-system.ts'
import { GENERATOR_PROMPT } from './generator-prompt.ts'

export interface ClaudeAnswererOptions {
  /** The generator model (EVAL_GENERATOR_MODEL). */
  model: string
  /** max_tokens of an answer (config generatorMaxTokens). */
  maxTokens: number
  /** At most this many sentences (config answerSentences, shared with the offline answerer). */
  sentences: number
  /** Receives one line per answer worth a look (cut off at max_tokens, empty): they go into the report's warnings. */
  warn: (message: string) => void
}

/**
 * Live generation: Claude answers from the packed context (delimited as data) or says the refusal sentence; no
 * temperature is sent (model/structured-call.ts); an answer cut off at max_tokens is kept and named in the warnings.
 */
export function createClaudeAnswerer(client: ModelClient, options: ClaudeAnswererOptions): Answerer {
  const hash = templateHash(GENERATOR_PROMPT)
  return async (question, context) => {
    const passages = context.map(({ chunkId, text }) => ({ chunkId, text }))
    const user = renderUser(GENERATOR_PROMPT, {
      material: materialBlock(passages),
      question: questionBlock(question.question, question.history),
      sentences: String(options.sentences),
    })
    const { response } = await client.call({
      role: 'generator',
      subject: question.id,
      purpose: 'generate',
      templateHash: hash,
      schemaHash: null,
      inputs: {
        question: question.question,
        // Only a follow-up question's key holds its history: the cached answers of the others stay valid.
        ...(question.history === undefined ? {} : { history: question.history }),
        context: passages,
        sentences: options.sentences,
      },
      sample: question.trial ?? 0,
      request: {
        model: options.model,
        max_tokens: options.maxTokens,
        system: [{ type: 'text', text: GENERATOR_PROMPT.system, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: user }],
      },
    })
    const answer = responseText(response).trim()
    if (response.stopReason === 'max_tokens')
      options.warn(
        `${question.id}: the generator's answer was cut off at max_tokens (${options.maxTokens}); it is judged as it is`,
      )
    else if (answer === '')
      options.warn(
        `${question.id}: the generator returned no text (stop reason ${response.stopReason ?? 'none'}); scored as a refusal`,
      )
    return answer
  }
}
