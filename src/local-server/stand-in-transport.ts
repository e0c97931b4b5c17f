import { normaliseMessage } from '../model/model-types.ts'
import type { PromptCacheSimulator } from '../model/prompt-cache.ts'
import { rawRequestTokens } from '../model/request-cost.ts'
import type { MessagesTransport } from '../model/sdk-transport.ts'
import { scriptedReply } from './scripted-responder.ts'

/**
 * The cost estimate's stand-in for the Messages API: answers in process, at once, with the scripted
 * responder's plausible outputs (the extractive answer from the material for the generator, valid verdicts
 * for the judges), so the dry run builds every judge prompt the way the run will. Its input tokens are
 * counted as the local server counts them, prompt caching applied as the API applies it; never sent anywhere.
 */
export function standInTransport(promptCache: PromptCacheSimulator): MessagesTransport {
  let index = 0
  return async (request) => {
    // A plain JSON copy, as a server would receive it.
    const body = JSON.parse(JSON.stringify(request)) as Record<string, unknown>
    const reply = scriptedReply({
      index: index++,
      body,
      hasApiKey: false,
      anthropicVersion: null,
      sdkRetryCount: null,
      receivedAt: 0,
      promptCache: promptCache.split(body, rawRequestTokens(body)),
    })
    if (reply.kind !== 'message')
      throw new Error(
        `cost estimate: the stand-in cannot answer this request (${reply.kind === 'error' ? reply.message : reply.kind})`,
      )
    return { response: normaliseMessage(reply.body), scripted: false }
  }
}
