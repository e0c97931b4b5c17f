import { rankedChunkId, type HttpChunk, type HttpResponse } from './http-contract.ts'
import { packContext } from './context-packer.ts'
import type { RetrievedChunk, SystemAnswer } from './rag-system.ts'

export interface AnswerDefaults {
  /** Context budget used to pack `ranked` when the system sends no `context`. */
  budgetTokens: number
  /** The suite's tokenizer, for chunks that come without `tokens`. */
  countTokens: (text: string) => number
}

/**
 * A checked answer with what it left out filled (docs/your-pipeline.md); chunks are new objects of the
 * contract's fields only, so nothing else a system carries reaches the reports.
 */
export function completeAnswer(response: HttpResponse, defaults: AnswerDefaults): SystemAnswer {
  const toChunk = (item: HttpChunk, position: number, count: number, idPrefix: string): RetrievedChunk => ({
    chunkId: rankedChunkId(item, position, idPrefix),
    docId: item.docId,
    score: item.score ?? count - position,
    tokens: item.tokens ?? defaults.countTokens(item.text),
    text: item.text,
  })

  /** An item without chunkId is the ranked chunk of the same docId and text if any, else `${docId}#${prefix}${position}`. */
  function matchRanked(items: readonly HttpChunk[], ranked: readonly RetrievedChunk[], prefix: string): RetrievedChunk[] {
    return items.map((item, position) => {
      if (item.chunkId === undefined) {
        const same = ranked.find((chunk) => chunk.docId === item.docId && chunk.text === item.text)
        if (same) return { ...same, tokens: item.tokens ?? same.tokens }
      }
      return toChunk(item, position, items.length, prefix)
    })
  }

  const ranked = response.ranked.map((item, position) => toChunk(item, position, response.ranked.length, ''))
  const context =
    response.context == null ? packContext(ranked, defaults.budgetTokens) : matchRanked(response.context, ranked, 'context-')
  const result: SystemAnswer = { ranked, context }
  if (response.stages) {
    result.stages = response.stages.map((stage, index) => ({
      name: stage.name,
      ranked: matchRanked(stage.ranked, ranked, `stage${index + 1}-`),
      ...(stage.query === undefined ? {} : { query: stage.query }),
      ...(stage.latencyMs === undefined ? {} : { latencyMs: stage.latencyMs }),
    }))
  }
  if (response.answer != null) result.answer = response.answer
  if (response.citations) result.citations = response.citations.map(({ start, end, chunkIds }) => ({ start, end, chunkIds }))
  if (response.prompt !== undefined) result.prompt = response.prompt
  if (response.access !== undefined) result.access = response.access
  if (response.timingsMs) {
    const { retrieve, generate } = response.timingsMs
    result.timingsMs = {
      ...(retrieve === undefined ? {} : { retrieve }),
      ...(generate === undefined ? {} : { generate }),
    }
  }
  return result
}

/** The answer with the time the system took to give it (`timingsMs.call`), apart from what the suite does with it after. */
export function withCallTime(answer: SystemAnswer, ms: number): SystemAnswer {
  return { ...answer, timingsMs: { ...answer.timingsMs, call: ms } }
}
