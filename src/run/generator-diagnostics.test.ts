import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { attributionRecords } from '../report/attribution.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import type { RagSystem } from '../system/rag-system.ts'
import { describeEvidence } from '../vitest/matchers/evidence.ts'
import { evaluate } from './evaluate.ts'

// docs/metrics.md's example through a whole run (scoring/generation/generator-diagnostics.test.ts works it by hand):
// c1 of the answer document t-001, c2 of t-003 (noise); the other answer document, t-002, is missed, so g-1 fails its
// case. g-3 is a none question, out of the diagnostics' scope.
const project = await loadProjectConfig({
  overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/generator-diagnostics.json' },
})
const c1 = { chunkId: 't-001#0', docId: 't-001', score: 2, tokens: 12, text: 'Traces are kept for 30 days on the Business plan.' }
const c2 = { chunkId: 't-003#0', docId: 't-003', score: 1, tokens: 12, text: 'Logs are kept for 14 days on the Team plan.' }
const system: RagSystem = {
  name: 'example',
  async answer(question) {
    return question.id === 'g-1'
      ? {
          ranked: [c1, c2],
          context: [c1, c2],
          answer:
            'Traces are kept for 30 days on Business. Logs are kept for 14 days. Exports are encrypted. Traces are deleted after export.',
        }
      : { ranked: [c2], context: [c2], answer: 'The material does not say.' }
  },
}

describe('the generator diagnostics in a run', async () => {
  const report = await evaluate(project, { tier: 'full', env: {}, system, baselineRoot: null })
  const [g1, g3] = report.questions

  it("sets each question's values and blame, none for a none question, and summarises them", () => {
    expect(g1).toMatchObject({
      claimRecall: 0.5,
      contextUtilisation: 1,
      noiseSensitivity: 0.25,
      hallucination: 0.25,
      selfKnowledge: 0.25,
      blame: 'generator',
    })
    expect(g3).toMatchObject({ claimRecall: null, hallucination: null, blame: null })
    // One answerable question: each summary value is its value.
    expect(report.summary).toMatchObject({
      claimRecall: 0.5,
      contextUtilisation: 1,
      noiseSensitivity: 0.25,
      hallucination: 0.25,
      selfKnowledge: 0.25,
    })
  })

  it('shows them in latest.md: a row each in the generation table, the values and the blame of a failing question', () => {
    const markdown = renderMarkdown(report)
    for (const [label, value] of [
      ['claim recall', '0.5000'],
      ['context utilisation', '1.0000'],
      ['noise sensitivity', '0.2500'],
      ['hallucination', '0.2500'],
      ['self-knowledge', '0.2500'],
    ])
      expect(markdown).toMatch(new RegExp(`\\| ${label} +\\| ${value}`))
    // g-1 misses t-002: a failing question.
    const section = markdown.slice(markdown.indexOf('### g-1'))
    expect(section).toContain(
      'claim recall 0.5, context utilisation 1, noise sensitivity 0.25, hallucination 0.25, self-knowledge 0.25, diagnosis',
    )
    expect(section).toContain(
      "- blame: the generator's: the context holds the gold answer's claims, the answer misuses or leaves them",
    )
  })

  it("names the blame in the failing case's evidence and in attribution.jsonl", () => {
    expect(attributionRecords(report).map((r) => [r.id, r.blame])).toEqual([['g-1', 'generator']])
    expect(describeEvidence(g1!).split('\n').at(-1)).toBe(
      "blame      the generator's: the context holds the gold answer's claims, the answer misuses or leaves them",
    )
    expect(describeEvidence(g3!)).not.toContain('blame')
  })
})
