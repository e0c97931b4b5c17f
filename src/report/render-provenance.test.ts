import { describe, expect, it } from 'vitest'
import type { Provenance } from '../contract/provenance-schema.ts'
import { describeProvenance, provenanceLine, unreviewedWarning } from './render-provenance.ts'

const drafted: Provenance = {
  origin: 'drafted',
  model: 'claude-sonnet-5',
  promptHash: '5f0c2a9e',
  draftedAt: '2026-12-01T09:30:00.000Z',
}
const harvested: Provenance = {
  origin: 'harvested',
  source: 'logs/prod.jsonl',
  line: 12,
  harvestedAt: '2026-12-03T10:00:00.000Z',
}
const questions = [
  { id: 'q-001' },
  { id: 'q-002', provenance: { origin: 'hand-written' as const } },
  { id: 'q-003', provenance: { ...drafted, reviewedBy: 'ana', reviewedAt: '2026-12-02T04:00:00.000Z' } },
  { id: 'q-004', provenance: { ...drafted, unreviewed: true } },
  { id: 'q-005', provenance: { origin: 'imported' as const, unreviewed: true } },
]

describe('reports tell drafted questions from hand-written ones', () => {
  it('warns with the count and ids of the unreviewed questions; nothing for a hand-written set', () => {
    expect(unreviewedWarning(questions)).toBe(
      'the golden set holds 2 questions accepted without review (golden review --accept-kept: drafted by a model, read by nobody): ' +
        'q-004, q-005; their gold answers and documents are unchecked by a person: read them with rag-eval golden review on a ' +
        'terminal (it shows them after the drafts) before trusting the numbers',
    )
    expect(unreviewedWarning(questions.slice(0, 3))).toBeNull()
  })

  it('counts where the questions came from, in one line, only when some were drafted or imported', () => {
    expect(provenanceLine(questions)).toEqual([
      'questions: 2 drafted by a model (1 reviewed by a person, 1 unreviewed), 1 imported, 2 hand-written',
    ])
    expect(provenanceLine(questions.slice(0, 2))).toEqual([])
    expect(provenanceLine([...questions.slice(0, 2), { id: 'q-006', provenance: harvested }])).toEqual([
      'questions: 1 harvested from production, 2 hand-written',
    ])
  })

  it("describes a question's provenance beside it", () => {
    expect(describeProvenance(questions[2]!.provenance)).toBe(
      'drafted by claude-sonnet-5 (prompt 5f0c2a9e), reviewed by ana on 2026-12-02T04:00:00.000Z',
    )
    expect(describeProvenance(questions[3]!.provenance)).toBe(
      'drafted by claude-sonnet-5 (prompt 5f0c2a9e), unreviewed (accepted by golden review --accept-kept)',
    )
    expect(describeProvenance({ ...harvested, reviewedBy: 'ana' })).toBe('harvested from logs/prod.jsonl:12, reviewed by ana')
    expect(describeProvenance(undefined)).toBe('')
    expect(describeProvenance({ origin: 'hand-written' })).toBe('')
  })
})
