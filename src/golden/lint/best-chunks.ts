import type { EvalConfig } from '../../contract/eval-config-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { createBuiltinSystem } from '../../builtin/builtin-system.ts'
import { systemQuestionOf } from '../../system/rag-system.ts'
import type { BestChunk } from './none-too-easy.ts'
import type { Finding } from './finding.ts'
import { lintGoldenSet } from './lint-golden-set.ts'
import type { TypeFloors } from './type-distribution.ts'

/** The built-in system's best chunk for every none question (for none-too-easy), computed apart so the rule stays pure. */
export async function bestChunksOfNoneQuestions(
  questions: readonly GoldenQuestion[],
  docs: readonly CorpusDocument[],
  config: EvalConfig,
): Promise<Map<string, BestChunk | null>> {
  const best = new Map<string, BestChunk | null>()
  const none = questions.filter((q) => q.type === 'none')
  if (none.length === 0) return best
  const system = createBuiltinSystem(docs, { ...config, generate: false })
  for (const question of none) {
    const { ranked } = await system.answer(systemQuestionOf(question))
    const top = ranked[0]
    best.set(question.id, top === undefined ? null : { chunkId: top.chunkId, text: top.text })
  }
  return best
}

/** golden:check's rules on questions that load, with the built-in system's best chunk of each none question. */
export async function lintQuestions(
  questions: readonly GoldenQuestion[],
  docs: readonly CorpusDocument[],
  config: EvalConfig,
  floors?: TypeFloors,
): Promise<Finding[]> {
  const bestChunks = await bestChunksOfNoneQuestions(questions, docs, config)
  return lintGoldenSet({ questions, docs, bestChunks, ...(floors === undefined ? {} : { floors }) })
}
