import { describe, expect, it } from 'vitest'
import { idBasedContextPrecision } from './id-based-context-precision.ts'
import { idBasedContextRecall } from './id-based-context-recall.ts'

// Definitions and examples: RAGAS docs, concepts/metrics/available_metrics/context_precision.md and
// context_recall.md ("ID Based Context Precision/Recall"), and src/ragas/metrics/_context_precision.py and
// _context_recall.py (sets of string ids; NaN for an empty denominator), explodinggradients/ragas at 3e28e9d.
describe('idBasedContextRecall', () => {
  it("gives the RAGAS docs' example: 1 of 4 reference ids retrieved = 0.25", () => {
    expect(idBasedContextRecall(['doc_1', 'doc_2', 'doc_3'], ['doc_1', 'doc_4', 'doc_5', 'doc_6'])).toBe(0.25)
  })
  it('counts repeated ids once on both sides', () => {
    // reference {a, b}; retrieved {a}: 1/2
    expect(idBasedContextRecall(['a', 'a', 'c', 'a'], ['a', 'b', 'a'])).toBe(0.5)
  })
  it('is 0 for nothing retrieved and null (RAGAS: NaN) for no reference ids', () => {
    expect(idBasedContextRecall([], ['a'])).toBe(0)
    expect(idBasedContextRecall(['a'], [])).toBeNull()
  })
})

describe('idBasedContextPrecision', () => {
  it("gives the RAGAS docs' example: 2 of 4 retrieved ids relevant = 0.5", () => {
    expect(idBasedContextPrecision(['doc_1', 'doc_2', 'doc_3', 'doc_4'], ['doc_1', 'doc_4', 'doc_5', 'doc_6'])).toBe(0.5)
  })
  it('deduplicates retrieved ids as RAGAS does', () => {
    // retrieved {a, c}: a is relevant: 1/2 (not 3/4 over the four chunks)
    expect(idBasedContextPrecision(['a', 'a', 'c', 'a'], ['a', 'b'])).toBe(0.5)
  })
  it('is 0 with no reference ids and null (RAGAS: NaN) for nothing retrieved', () => {
    expect(idBasedContextPrecision(['a', 'b'], [])).toBe(0)
    expect(idBasedContextPrecision([], ['a'])).toBeNull()
  })
})
