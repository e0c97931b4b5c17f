import { describe, expect, it } from 'vitest'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { rewriteQuestionText } from './rewrite-question.ts'

const FILE = `{
  "$schema": "./golden-set.schema.json",
  "questions": [
    {
      "id": "q-001",
      "type": "none",
      "question": "A?",
      "answerDocIds": []
    },
    {
      "id": "q-002",
      "type": "none",
      "question": "B?",
      "answerDocIds": []
    },
    { "id": "q-003", "type": "none", "question": "C?", "answerDocIds": [] }
  ]
}
`
const q = (id: string, question: string): GoldenQuestion => ({ id, type: 'none', question, answerDocIds: [] })

describe('rewriting one question of a golden-set file in place', () => {
  it('replaces a question in its own layout, every other byte kept', () => {
    const replaced = rewriteQuestionText(FILE, 'q-002', q('q-002', 'B, reviewed?'))!
    expect(replaced).toBe(FILE.replace('"question": "B?"', '"question": "B, reviewed?"'))
    const oneLine = rewriteQuestionText(FILE, 'q-003', q('q-003', 'C, reviewed?'))!
    expect(oneLine).toBe(FILE.replace('"question": "C?"', '"question": "C, reviewed?"'))
  })

  it('removes the first, a middle, the last and the only question with their separators', () => {
    const parse = (text: string) => (JSON.parse(text) as { questions: { id: string }[] }).questions.map((x) => x.id)
    const first = rewriteQuestionText(FILE, 'q-001', null)!
    expect(parse(first)).toEqual(['q-002', 'q-003'])
    expect(first).toBe(FILE.replace(/ {4}\{\n {6}"id": "q-001"[^}]*\},\n/, ''))
    const middle = rewriteQuestionText(FILE, 'q-002', null)!
    expect(parse(middle)).toEqual(['q-001', 'q-003'])
    expect(middle).toBe(FILE.replace(/,\n {4}\{\n {6}"id": "q-002"[^}]*\}/, ''))
    const last = rewriteQuestionText(FILE, 'q-003', null)!
    expect(last).toBe(FILE.replace(/,\n {4}\{ "id": "q-003".*\}/, ''))
    const only = rewriteQuestionText(rewriteQuestionText(middle, 'q-001', null)!, 'q-003', null)!
    expect(only).toBe('{\n  "$schema": "./golden-set.schema.json",\n  "questions": []\n}\n')
  })

  it('is null for an id the file does not hold', () => {
    expect(rewriteQuestionText(FILE, 'q-404', null)).toBeNull()
  })
})
