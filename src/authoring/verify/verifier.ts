import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'

/** A passage shown to a verifier: a whole document (claims, contradictions) or a retrieved chunk (none questions). */
export interface Passage {
  /** The document id, or the chunk id of a retrieved passage. */
  id: string
  text: string
  /** A retrieved passage's document (a probe is checked against the passages its asker may read). */
  docId?: string
}

/** Whether the passages support one claim of a gold answer. */
export interface ClaimSupport {
  claim: string
  verdict: 'supported' | 'unsupported' | 'undecided'
  /** The passage the verdict relies on (null when none). */
  passageId: string | null
  reason: string
}

export interface Answerability {
  verdict: 'answers' | 'does-not-answer' | 'undecided'
  passageId: string | null
  reason: string
}

export interface Disagreement {
  verdict: 'disagree' | 'agree' | 'undecided'
  /** The document the verifier reads as governing, when it names one. */
  governingDocId: string | null
  reason: string
}

/**
 * The judgements `golden verify` asks for, lexical or by the model. What a verifier cannot decide is 'undecided' with
 * its reason, never a silent keep or reject.
 */
export interface Verifier {
  readonly name: string
  /** Every claim of the gold answer against the passages (the gold documents, or one of them). */
  supportClaims(question: GoldenQuestion, claims: readonly string[], passages: readonly Passage[]): Promise<ClaimSupport[]>
  /** Whether any passage answers a question meant to be unanswerable. */
  answers(question: GoldenQuestion, passages: readonly Passage[]): Promise<Answerability>
  /** Whether the documents of a contradiction question state different answers to it. */
  disagreement(question: GoldenQuestion, documents: readonly Passage[]): Promise<Disagreement>
}
