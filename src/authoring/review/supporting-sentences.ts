import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { splitClaims } from '../../scoring/generation/claims.ts'
import { splitSentences } from '../../text/sentences.ts'
import { extractNumbers, factEvidence } from '../../text/key-facts.ts'
import { lexicalClaimSupport } from '../verify/lexical-judgements.ts'
import type { ClaimSupport } from '../verify/verifier.ts'

/** A sentence of a gold document, with the claims of the gold answer it supports (1-based, as the card numbers them). */
export interface MarkedSentence {
  text: string
  /** Claims this sentence supports on its own, by golden verify's lexical support. */
  supports: number[]
  /** Claims of which this sentence states a number (text/key-facts.ts) without supporting the whole claim. */
  statesFactsOf: number[]
}

export interface MarkedDocument {
  docId: string
  title: string
  updated: string | null
  sentences: MarkedSentence[]
}

export interface SupportMarks {
  /** The gold answer's claims and golden verify's verdict on each against the whole gold documents. */
  claims: ClaimSupport[]
  documents: MarkedDocument[]
}

/**
 * The gold-document sentences supporting each claim, by golden verify's lexical support. A claim no single sentence
 * supports marks the sentences stating its numbers, so the reviewer still sees where to read.
 */
export function supportMarks(question: GoldenQuestion, docs: readonly CorpusDocument[]): SupportMarks {
  const byId = new Map(docs.map((doc) => [doc.id, doc]))
  const gold = question.answerDocIds.flatMap((id) => {
    const doc = byId.get(id)
    return doc === undefined ? [] : [doc]
  })
  const claims = question.goldAnswer === undefined ? [] : splitClaims(question.goldAnswer)
  const wholeDocs = gold.map((doc) => ({ id: doc.id, text: `${doc.title}\n${doc.body}` }))
  const verdicts = claims.length === 0 ? [] : lexicalClaimSupport(question.question, claims, wholeDocs)
  const documents = gold.map((doc): MarkedDocument => {
    const sentences = splitSentences(doc.body).map((text) => ({ text, evidence: factEvidence(text) }))
    const supports = sentences.map(() => [] as number[])
    const factsOf = sentences.map(() => [] as number[])
    claims.forEach((claim, c) => {
      sentences.forEach((sentence, s) => {
        const [alone] = lexicalClaimSupport(question.question, [claim], [{ id: `${doc.id}#${s}`, text: sentence.text }])
        if (alone?.verdict === 'supported') supports[s]!.push(c + 1)
      })
    })
    claims.forEach((claim, c) => {
      if (supports.some((claimsOfSentence) => claimsOfSentence.includes(c + 1))) return
      const numbers = extractNumbers(claim)
      sentences.forEach((sentence, s) => {
        if (numbers.some((n) => sentence.evidence.numbers.has(n))) factsOf[s]!.push(c + 1)
      })
    })
    return {
      docId: doc.id,
      title: doc.title,
      updated: doc.updated ?? null,
      sentences: sentences.map((sentence, s) => ({ text: sentence.text, supports: supports[s]!, statesFactsOf: factsOf[s]! })),
    }
  })
  return { claims: verdicts, documents }
}
