import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { goldCoverage } from '../scoring/generation/coverage.ts'
import { unsupportedFacts } from '../golden/lint/unsupported-facts.ts'
import { clozeQuestion } from '../model-server/scripted-drafter.ts'
import { splitClaims } from '../scoring/generation/claims.ts'
import { extractNumbers, keyFacts } from '../text/key-facts.ts'
import { lexicalClaimSupport } from './verify/lexical-judgements.ts'

const golden = loadGoldenSet('evals/golden-set.json', loadCorpus('corpus')).flatMap((q) =>
  q.goldAnswer === undefined ? [] : [{ ...q, goldAnswer: q.goldAnswer }],
)
const blank = { id: 'blank', title: '', body: '', file: 'blank.md' }

/** The numbers of `before` that `after` no longer holds, repeats counted. */
function removedNumbers(before: string, after: string): string[] {
  const left = extractNumbers(after)
  return extractNumbers(before).filter((n) => {
    const at = left.indexOf(n)
    if (at === -1) return true
    left.splice(at, 1)
    return false
  })
}

describe("one facts extractor: the repository's gold answers read the same by every consumer", () => {
  it('has gold answers with numbers and without', () => {
    expect(golden.filter((q) => keyFacts(q.goldAnswer).numbers.length > 0).length).toBeGreaterThan(40)
    expect(golden.filter((q) => keyFacts(q.goldAnswer).numbers.length === 0).length).toBeGreaterThan(5)
  })

  it('coverage: a refusal misses exactly the key facts; the gold answer itself covers them all', () => {
    for (const { goldAnswer } of golden) {
      const facts = keyFacts(goldAnswer)
      expect(goldCoverage(goldAnswer, '', true).missing).toEqual([...facts.numbers, ...facts.terms])
      expect(goldCoverage(goldAnswer, goldAnswer, false).value).toBe(1)
    }
  })

  it('golden:check: against a document stating nothing, unsupported-fact names exactly the key facts’ numbers', () => {
    for (const q of golden) {
      const question = { ...q, question: '?', answerDocIds: ['blank'] }
      const { numbers } = keyFacts(q.goldAnswer)
      const messages = unsupportedFacts([question], [blank]).map((f) => f.message)
      const plural = numbers.length === 1 ? '' : 's'
      expect(messages, q.id).toEqual(
        numbers.length === 0
          ? []
          : [`goldAnswer states the number${plural} ${numbers.join(', ')}, found in none of its answer docs (blank)`],
      )
      expect(unsupportedFacts([question], [{ ...blank, body: q.goldAnswer }]), q.id).toEqual([])
    }
  })

  it('golden verify: a gold answer’s claims are supported by it, and without its numbers unsupported, naming them', () => {
    for (const q of golden) {
      const claims = splitClaims(q.goldAnswer)
      const itself = lexicalClaimSupport('?', claims, [{ id: 'p', text: q.goldAnswer }])
      expect(
        itself.map((v) => v.verdict).filter((v) => v !== 'supported'),
        q.id,
      ).toEqual([])
      const without = lexicalClaimSupport('?', claims, [{ id: 'p', text: q.goldAnswer.replace(/\d/g, '') }])
      const named = without.flatMap((v, i) => {
        const numbers = keyFacts(claims[i]!).numbers
        expect(v.verdict, `${q.id}: ${v.claim}`).toBe(numbers.length === 0 ? 'supported' : 'unsupported')
        return numbers.filter((n) => v.reason.split(/[^\d.]+/).includes(n))
      })
      expect([...new Set(named)].sort(), q.id).toEqual([...keyFacts(q.goldAnswer).numbers].sort())
    }
  })

  it('the scripted drafter: the figure it asks for is one of the key facts’ numbers, found by its normalised value', () => {
    let askedAsTargeted = 0
    for (const q of golden) {
      for (const n of keyFacts(q.goldAnswer).numbers) {
        const cloze = clozeQuestion(q.goldAnswer, 'the topic', n)
        // No figure a question can ask for (only ids, dates, versions): asked about by its heading.
        if (cloze === 'What do the documents say about the topic?') continue
        const removed = removedNumbers(q.goldAnswer, cloze)
        expect(removed, q.id).toHaveLength(1)
        expect(keyFacts(q.goldAnswer).numbers, q.id).toContain(removed[0])
        if (removed[0] === n) askedAsTargeted++
      }
    }
    expect(askedAsTargeted).toBeGreaterThan(40)
    // "2.50" is asked for by its value 2.5, as coverage normalises it.
    expect(clozeQuestion('Storage costs USD 2.50 per GB and 3 GB are free.', 'pricing', '2.5')).toBe(
      'Storage costs USD what per GB and 3 GB are free?',
    )
  })
})
