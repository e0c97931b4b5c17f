import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { runKnobs } from '../config/project-config.ts'
import { createBuiltinSystem, retrievalQuery } from '../builtin/builtin-system.ts'
import { loadCorpus } from '../load/corpus.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import type { RagSystem, SystemQuestion } from '../system/rag-system.ts'
import type { HistoryTurn } from '../contract/golden-set-schema.ts'
import { evaluate } from './evaluate.ts'

/** g-1 standalone; g-4 a follow-up ("And how long are they kept?" means the snapshots of its first turn). */
const project = await loadProjectConfig({
  overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/follow-up.json' },
})
const history: HistoryTurn[] = [
  { role: 'user', content: 'How often are snapshots of the trace store taken?' },
  { role: 'assistant', content: 'Every 6 hours.' },
]

/** Answers every question from the trace-retention document (wrong for g-4) and records what it was asked. */
function recordingSystem(asked: SystemQuestion[]): RagSystem {
  return {
    name: 'recording',
    async answer(question) {
      asked.push(question)
      const chunk = { chunkId: 't-001#0', docId: 't-001', score: 1, tokens: 20, text: 'Traces are kept for 30 days on Business.' }
      return { ranked: [chunk], context: [chunk], answer: 'Traces are kept for 30 days.' }
    },
  }
}

describe('follow-up questions through a run', () => {
  it("passes a follow-up's history to the system and into its outcome; a standalone question has none anywhere", async () => {
    const asked: SystemQuestion[] = []
    const report = await evaluate(project, { tier: 'full', env: {}, system: recordingSystem(asked), baselineRoot: null })
    const byId = new Map(asked.map((question) => [question.id, question]))
    expect(byId.get('g-4')).toEqual({ id: 'g-4', question: 'And how long are they kept?', userContext: null, history })
    expect(byId.get('g-1')).toEqual({ id: 'g-1', question: 'How long are traces kept on Business?', userContext: null })
    const [g1, g4] = report.questions
    expect(g4!.history).toEqual(history)
    expect('history' in g1!).toBe(false)
  })

  it('shows the conversation in the Markdown failure section of a missed follow-up, before its evidence', async () => {
    const report = await evaluate(project, { tier: 'full', env: {}, system: recordingSystem([]), baselineRoot: null })
    const markdown = renderMarkdown(report)
    const section = markdown.slice(markdown.indexOf('### g-4'))
    expect(section.split('\n').slice(0, 6)).toEqual([
      '### g-4 [single] And how long are they kept?',
      '',
      '- follows the conversation:',
      '  1. user: How often are snapshots of the trace store taken?',
      '  2. assistant: Every 6 hours.',
      '- expected docs: t-002',
    ])
    expect(markdown).not.toContain('### g-1')
  })

  it("the built-in system searches with the user's earlier turns: the follow-up alone ranks the trace page first, with them the backup policy", async () => {
    const docs = loadCorpus('fixtures/corpora/tiny')
    const system = createBuiltinSystem(docs, { ...runKnobs(project, {}), generate: false })
    const question = 'And how long are they kept?'
    expect(retrievalQuery({ question, history: history })).toBe(
      'How often are snapshots of the trace store taken?\nAnd how long are they kept?',
    )
    const alone = await system.answer({ id: 'g-4', question, userContext: null })
    const followUp = await system.answer({ id: 'g-4', question, userContext: null, history: history })
    expect([alone.ranked[0]!.docId, followUp.ranked[0]!.docId]).toEqual(['t-001', 't-002'])
  })
})
