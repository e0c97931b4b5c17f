import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { lexicalFaithfulness } from '../../judge/offline-judge.ts'
import { extractNumbers, factCount, factEvidence, keyFacts, unstatedFacts, type KeyFacts } from '../../text/key-facts.ts'
import { splitSentences } from '../../text/sentences.ts'
import { termsWithoutPossessives } from '../../golden/lint/multi-facts-in-one-doc.ts'
import type { Answerability, ClaimSupport, Disagreement, Passage, Verifier } from './verifier.ts'

/** Below this share of a claim's content terms in its best passage, a claim with all its numbers found is unsupported. */
export const UNSUPPORTED_OVERLAP = 0.5

/**
 * Claims judged lexically: a number no passage holds, or a best passage with under half the claim's content terms
 * (unless every number is stated), is unsupported; half to the judge's 0.7 is undecided. A claim too short ("In
 * Tromsø.") is supported by its key facts, unsupported when one of its numbers is missing, else undecided ("Yes.").
 * Facts the question itself gives count as found.
 */
export function lexicalClaimSupport(question: string, claims: readonly string[], passages: readonly Passage[]): ClaimSupport[] {
  // The numbers the question gives need no document ("75% is above 50%" for a question about a 75% override):
  // a passage of the question's numbers alone, which holds none of its words, so supports no claim by overlap.
  const givenNumbers = extractNumbers(question).join(' ')
  const context = [
    ...passages.map((p) => ({ chunkId: p.id, text: p.text })),
    ...(givenNumbers === '' ? [] : [{ chunkId: '(the question)', text: givenNumbers }]),
  ]
  const evidence = passages.map((p) => ({ id: p.id, evidence: factEvidence(p.text) }))
  const given = factEvidence(question)
  return claims.map((claim): ClaimSupport => {
    const judged = (verdict: ClaimSupport['verdict'], passageId: string | null, reason: string) => ({
      claim,
      verdict,
      passageId,
      reason,
    })
    const facts = unstatedFacts(keyFacts(claim), [given])
    const missing = unstatedFacts(
      facts,
      evidence.map((e) => e.evidence),
    )
    const factsHeld = factCount(facts) > 0 && factCount(missing) === 0
    // Its numbers are what a paraphrase keeps: all of them stated, a claim with few shared terms is a paraphrase, not unsupported.
    const numbersHeld = facts.numbers.length > 0 && missing.numbers.length === 0
    const holder = factsHeld
      ? (evidence.find((e) => factCount(unstatedFacts(facts, [e.evidence])) === 0)?.id ?? evidence[0]!.id)
      : null
    const [verdict] = lexicalFaithfulness(claim, false, context).claims
    if (verdict === undefined || verdict.verdict === 'undecidable') {
      if (factsHeld) return judged('supported', holder, `${describeFacts(facts)} stated in the passages`)
      if (missing.numbers.length > 0) return judged('unsupported', null, `${describeFacts(missing)} in none of ${ids(passages)}`)
      return judged('undecided', null, 'too short to judge lexically (a yes/no or a bare word): the offline judge cannot tell')
    }
    const overlap = Math.round((verdict.overlap ?? 0) * 100)
    if (verdict.verdict === 'supported')
      return judged('supported', verdict.chunkId, `${overlap}% of its terms in ${verdict.chunkId}`)
    if (verdict.missingNumbers.length > 0)
      return judged('unsupported', null, `${verdict.missingNumbers.join(', ')} in none of ${ids(passages)}`)
    if ((verdict.overlap ?? 0) < UNSUPPORTED_OVERLAP && !numbersHeld)
      return judged(
        'unsupported',
        verdict.chunkId,
        `at most ${overlap}% of its content terms in one passage (best ${verdict.chunkId})`,
      )
    return judged(
      'undecided',
      verdict.chunkId,
      `${overlap}% of its content terms in ${verdict.chunkId}${numbersHeld ? `, its ${describeFacts({ numbers: facts.numbers, terms: [] })} stated` : ''}: ` +
        'a paraphrase the offline judge cannot confirm',
    )
  })
}

const ids = (passages: readonly Passage[]) => passages.map((p) => p.id).join(', ')
const describeFacts = (facts: KeyFacts) => [...facts.numbers, ...facts.terms].map((fact) => `"${fact}"`).join(', ')

/** Interrogatives the stopword list keeps ("when", "why"): they ask, and no passage answering states them. */
const QUESTION_WORDS = new Set(['when', 'why', 'where', 'how', 'who', 'whom', 'whose', 'what', 'which'])

/** The passage holding the most of the question's content terms, and which. */
function bestPassage(question: string, passages: readonly Passage[]): { passage: Passage; shared: string[]; of: number } | null {
  const terms = [...new Set(termsWithoutPossessives(question))].filter((t) => !QUESTION_WORDS.has(t))
  let best: { passage: Passage; shared: string[]; of: number } | null = null
  for (const passage of passages) {
    const own = new Set(termsWithoutPossessives(passage.text))
    const shared = terms.filter((t) => own.has(t))
    if (best === null || shared.length > best.shared.length) best = { passage, shared, of: terms.length }
  }
  return best
}

/** A none question lexically: a passage holding every content term of the question may answer it (undecided); else none does. */
export function lexicalAnswerability(question: GoldenQuestion, passages: readonly Passage[]): Answerability {
  const best = bestPassage(question.question, passages)
  if (best !== null && best.of >= 2 && best.shared.length === best.of)
    return {
      verdict: 'undecided',
      passageId: best.passage.id,
      reason: `${best.passage.id} holds every content term of the question (${best.shared.join(', ')}): it may answer it, and the offline judge cannot tell`,
    }
  return {
    verdict: 'does-not-answer',
    passageId: best?.passage.id ?? null,
    reason:
      best === null
        ? 'nothing retrieved'
        : `the closest passage, ${best.passage.id}, holds ${best.shared.length} of the question's ${best.of} content terms`,
  }
}

/** The numbers of the sentences of a document that share the most content terms with the question. */
function answeringValues(question: string, document: Passage): Set<string> {
  const terms = new Set(termsWithoutPossessives(question))
  const sentences = splitSentences(document.text).map((sentence) => ({
    sentence,
    shared: new Set(termsWithoutPossessives(sentence).filter((t) => terms.has(t))).size,
  }))
  const most = Math.max(0, ...sentences.map((s) => s.shared))
  const values = new Set<string>()
  if (most === 0) return values
  for (const { sentence, shared } of sentences) if (shared === most) for (const n of extractNumbers(sentence)) values.add(n)
  return values
}

/**
 * A contradiction's documents lexically, by the numbers of each document's sentences nearest the question: the same
 * figures agree, a figure another lacks disagrees, no figures is undecided (a disagreement in words needs a reader).
 */
export function lexicalDisagreement(question: GoldenQuestion, documents: readonly Passage[]): Disagreement {
  const values = documents.map((doc) => ({ doc, values: answeringValues(question.question, doc) }))
  const without = values.filter((v) => v.values.size === 0)
  if (without.length > 0)
    return {
      verdict: 'undecided',
      governingDocId: null,
      reason: `no figure near the question's terms in ${without.map((v) => v.doc.id).join(', ')}: the offline judge cannot compare them`,
    }
  const describe = (v: (typeof values)[number]) => `${v.doc.id}: ${[...v.values].join(', ')}`
  const [first, ...rest] = values
  const same = rest.every((v) => v.values.size === first!.values.size && [...v.values].every((n) => first!.values.has(n)))
  return same
    ? { verdict: 'agree', governingDocId: null, reason: `every document states the same figures (${describe(first!)})` }
    : { verdict: 'disagree', governingDocId: null, reason: `they state different figures (${values.map(describe).join('; ')})` }
}

/** The offline verifier: the judgements above, deterministic and free. */
export const offlineVerifier: Verifier = {
  name: 'offline-lexical',
  async supportClaims(question, claims, passages) {
    return lexicalClaimSupport(question.question, claims, passages)
  },
  async answers(question, passages) {
    return lexicalAnswerability(question, passages)
  },
  async disagreement(question, documents) {
    return lexicalDisagreement(question, documents)
  },
}
