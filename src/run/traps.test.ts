import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { createBuiltinSystem } from '../builtin/builtin-system.ts'
import { REFUSAL_SENTENCE } from '../builtin/extractive-answerer.ts'
import type { RagSystem, RagSystemFactory } from '../system/rag-system.ts'
import { evaluate } from './evaluate.ts'

const project = await loadProjectConfig()

/** The built-in retrieval with a fixed answer to every question: the two classic traps. */
const answering =
  (answer: string): RagSystemFactory =>
  ({ corpus, config }) => {
    const builtin = createBuiltinSystem(corpus ?? [], { ...config, generate: false })
    const system: RagSystem = {
      name: 'fixed-answer',
      chunkCountByDoc: builtin.chunkCountByDoc,
      async answer(question) {
        return { ...(await builtin.answer(question)), answer }
      },
    }
    return system
  }

describe('the two traps, caught by reading the metrics together', () => {
  it('an always-refusing system scores faithfulness high and relevancy 0', async () => {
    const report = await evaluate(project, { tier: 'full', env: {}, system: answering(REFUSAL_SENTENCE) })
    expect(report.summary.faithfulness).toBe(1)
    expect(report.summary.answerRelevancy).toBe(0)
    expect(report.summary.coverage).toBe(0)
    expect(report.summary.refusalRate).toBe(1)
    expect(report.summary.falseRefusalRate).toBe(1)
  })

  it('a fluent, on-topic answer with an invented number scores relevancy high and faithfulness below 1, listing the sentence', async () => {
    const paths = await loadProjectConfig({
      overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' },
    })
    const invented = 'Traces are kept for 45 days on Business.'
    const report = await evaluate(paths, { tier: 'full', env: {}, system: answering(invented) })
    const question = report.questions.find((q) => q.id === 'g-1')!
    // Question terms long, trace, kept, busi: the answer uses trace, kept, busi -> 3/4.
    expect(question.answerRelevancy).toBe(0.75)
    // One decidable claim; its 45 is in no context chunk -> unsupported.
    expect(question.faithfulness).toBe(0)
    expect(question.unsupportedClaims).toEqual([invented])
    expect(question.diagnosis).toBe('model ignores context')
  })
})
