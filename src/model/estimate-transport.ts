import { countTextTokens } from '../text/tokenizer.ts'
import type { ModelResponse } from './model-types.ts'
import type { PromptCacheSimulator } from './prompt-cache.ts'
import { rawRequestTokens } from './request-cost.ts'
import type { MessagesTransport } from './sdk-transport.ts'

/** The answer the estimate assumes where the cache holds none: of typical length, so judge prompts are priced realistically. */
export const TYPICAL_ANSWER =
  'The material answers the question directly: the first statement gives the rule or the figure asked about, as the ' +
  'passage states it, for example 30 days. The second statement adds the condition under which it holds and who it ' +
  'applies to. The third names the document that says so, so that a reader can check it.'

/** Output tokens of a typical answer (the generator's reply): TYPICAL_ANSWER's tokens. */
export const TYPICAL_ANSWER_TOKENS = countTextTokens(TYPICAL_ANSWER)

/**
 * The cost estimate's transport: sends nothing; bills each request its real input tokens (prompt caching applied) and a
 * typical reply. A structured request gets an empty tool call, whose repair is not priced (see estimate.ts).
 */
export function estimateTransport(promptCache: PromptCacheSimulator, toolReplyTokens: number): MessagesTransport {
  let index = 0
  return async (request) => {
    const tool = request.tool_choice?.type === 'tool' ? request.tool_choice.name : null
    const input = promptCache.split(request, rawRequestTokens(request))
    const response: ModelResponse = {
      id: `msg_estimate_${index++}`,
      model: request.model,
      stopReason: tool === null ? 'end_turn' : 'tool_use',
      content:
        tool === null
          ? [{ type: 'text', text: TYPICAL_ANSWER }]
          : [{ type: 'tool_use', id: `toolu_estimate_${index}`, name: tool, input: {} }],
      usage: {
        inputTokens: input.input,
        outputTokens: tool === null ? TYPICAL_ANSWER_TOKENS : toolReplyTokens,
        cacheReadTokens: input.cacheRead,
        cacheWriteTokens: input.cacheWrite,
      },
    }
    return { response, scripted: false }
  }
}
