import { describe, expect, it } from 'vitest'
import { parseCorpusDocument } from '../load/corpus.ts'
import { GoldenQuestionSchema } from '../contract/golden-set-schema.ts'
import { contentTerms } from '../text/text-analyzer.ts'
import { countWords, generateSyntheticCorpus, toMarkdownFile } from './synthetic-corpus.ts'

const options = { seed: 7, documents: 60, questions: 40 }

describe('generateSyntheticCorpus', () => {
  const corpus = generateSyntheticCorpus(options)

  it('gives identical output for the same seed and different output for another seed', () => {
    expect(generateSyntheticCorpus(options)).toEqual(corpus)
    const other = generateSyntheticCorpus({ ...options, seed: 8 })
    expect(other.documents.map((d) => d.body)).not.toEqual(corpus.documents.map((d) => d.body))
    expect(other.questions.map((q) => q.question)).not.toEqual(corpus.questions.map((q) => q.question))
  })

  it('respects the requested counts and question type mix', () => {
    expect(corpus.documents).toHaveLength(60)
    expect(corpus.questions).toHaveLength(40)
    const mixed = generateSyntheticCorpus({ ...options, typeMix: { single: 5, multi: 3, none: 2 } })
    const count = (type: string) => mixed.questions.filter((q) => q.type === type).length
    expect([count('single'), count('multi'), count('none')]).toEqual([20, 12, 8])
    // Default mix 60/25/15 of 40.
    expect(['single', 'multi', 'none'].map((t) => corpus.questions.filter((q) => q.type === t).length)).toEqual([24, 10, 6])
    expect(new Set(corpus.documents.map((d) => d.id)).size).toBe(60)
    expect(new Set(corpus.questions.map((q) => q.id)).size).toBe(40)
  })

  it('writes valid Markdown documents of 150-900 words with ## sections', () => {
    for (const doc of corpus.documents) {
      const words = countWords(doc.body)
      expect(words).toBeGreaterThanOrEqual(150)
      expect(words).toBeLessThanOrEqual(900)
      expect(doc.body).toMatch(/^## \S/m)
      expect(doc.body.startsWith(`# ${doc.title}\n`)).toBe(true)
      expect(parseCorpusDocument(toMarkdownFile(doc), doc.file)).toEqual(doc)
    }
  })

  it('asks valid questions whose answer documents exist and share terms with them', () => {
    const byId = new Map(corpus.documents.map((d) => [d.id, new Set(contentTerms(d.body))]))
    const everyTerm = new Set([...byId.values()].flatMap((terms) => [...terms]))
    for (const question of corpus.questions) {
      expect(GoldenQuestionSchema.parse(question)).toEqual(question)
      const terms = contentTerms(question.question)
      for (const id of question.answerDocIds) {
        const docTerms = byId.get(id)
        expect(docTerms, `${question.id} -> ${id}`).toBeDefined()
        expect(
          terms.some((t) => docTerms!.has(t)),
          `${question.id} shares no term with ${id}`,
        ).toBe(true)
      }
      if (question.type === 'multi') expect(question.answerDocIds.length).toBeGreaterThanOrEqual(2)
      // An unanswerable question asks about something no document mentions.
      if (question.type === 'none') expect(terms.some((t) => !everyTerm.has(t))).toBe(true)
    }
  })
})
