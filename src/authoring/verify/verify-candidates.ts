import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { splitClaims } from '../../scoring/generation/claims.ts'
import { comparable, normalisedText, repetition, sameSetting } from '../../golden/lint/duplicate-questions.ts'
import { quantityEvidence, type FactEvidence } from '../../text/key-facts.ts'
import { RULES } from '../../golden/lint/finding.ts'
import { supersededIds } from '../../golden/lint/contradiction-without-governing.ts'
import { corpusEvidence } from '../../golden/lint/unsupported-facts.ts'
import { lintGoldenSet } from '../../golden/lint/lint-golden-set.ts'
import { corpusTerms, loneHolders, termsWithoutPossessives } from '../../golden/lint/multi-facts-in-one-doc.ts'
import type { BestChunk } from '../../golden/lint/none-too-easy.ts'
import type { MayRead } from '../../contract/access-schema.ts'
import type { Candidate } from './read-candidates.ts'
import type { Verdict, VerdictStatus } from './verdict-schema.ts'
import type { Passage, Verifier } from './verifier.ts'

/** What a reason does to the verdict: rejects, leaves it undecided, or only informs (a golden:check warning). */
export type Effect = 'reject' | 'undecided' | 'note'

export interface Reason {
  check: string
  message: string
  effect: Effect
}

const reason = (check: string, effect: Effect, message: string): Reason => ({ check, message, effect })

export interface Retriever {
  /** "built-in BM25", or the configured system's name. */
  name: string
  retrieve(question: GoldenQuestion): Promise<Passage[]>
}

export interface VerifyInput {
  candidates: readonly Candidate[]
  docs: readonly CorpusDocument[]
  /** The current golden set: a candidate repeating one of its questions is a duplicate. */
  golden: readonly GoldenQuestion[]
  verifier: Verifier
  /** Whose top-k a none question is checked against: the built-in retriever, and the configured system. */
  retrievers: readonly Retriever[]
  /** The built-in system's best chunk per none candidate (golden:check's none-too-easy). */
  bestChunks: ReadonlyMap<string, BestChunk | null>
  /** The project's access rule: a cross-tenant probe is answerable only by passages its asker may read. */
  mayRead: MayRead
}

export interface VerifiedCandidate {
  candidate: Candidate
  status: VerdictStatus
  reasons: Reason[]
}

/** rejected if any reason rejects, else undecided if any leaves it undecided, else kept. */
export function statusOf(reasons: readonly Reason[]): VerdictStatus {
  if (reasons.some((r) => r.effect === 'reject')) return 'rejected'
  if (reasons.some((r) => r.effect === 'undecided')) return 'undecided'
  return 'kept'
}

export function verdictOf(verified: VerifiedCandidate): Verdict {
  return { status: verified.status, reasons: verified.reasons.map(({ check, message }) => ({ check, message })) }
}

/** "A or B?", "Between A and B, which ...?", "Which of A and B ...?": the question names the answer among others. */
const EITHER_OR = /\bor\b|\bbetween\b.+\band\b|\bwhich (?:of|one)\b/i

const CLOSED_QUESTION = /^(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|has|have|had|may|might|must)\b/i

/**
 * A question containing its answer: the gold answer's text, or all its content terms, in the question. A yes/no or
 * either-or question names them by design ("Is it 90 days?"), so there the check is undecided.
 */
export function leakedAnswer(question: GoldenQuestion): Reason | null {
  if (question.goldAnswer === undefined) return null
  const answerText = normalisedText(question.goldAnswer.replace(/^\s*(?:yes|no)\b[,.;:]?/i, ''))
  const questionText = normalisedText(question.question)
  const answerTerms = [...new Set(termsWithoutPossessives(question.goldAnswer))].filter((t) => t !== 'ye')
  const questionTerms = new Set(termsWithoutPossessives(question.question))
  const inText = answerText.length > 0 && questionText.includes(answerText)
  const allTerms = answerTerms.length > 0 && answerTerms.every((t) => questionTerms.has(t))
  if (!inText && !allTerms) return null
  const what = inText
    ? `the question contains its gold answer "${question.goldAnswer}"`
    : `every content term of the gold answer (${answerTerms.join(', ')}) is in the question`
  if (CLOSED_QUESTION.test(question.question.trim()) || EITHER_OR.test(question.question))
    return reason(
      'leaked-answer',
      'undecided',
      `${what}, as a yes/no or either-or question's does: a reader must tell a leak from a confirmation`,
    )
  return reason('leaked-answer', 'reject', `${what}: a system can answer it by echoing the question`)
}

function sameDocs(a: GoldenQuestion, b: GoldenQuestion): boolean {
  return a.answerDocIds.length === b.answerDocIds.length && a.answerDocIds.every((id) => b.answerDocIds.includes(id))
}

/**
 * A near-duplicate (golden:check's measure) with the same answer documents of an earlier candidate or golden question.
 * A golden question with the candidate's id and text is the candidate itself (a golden set verified anew).
 */
export function duplicateOf(
  question: GoldenQuestion,
  earlier: readonly { where: string; question: GoldenQuestion }[],
): Reason | null {
  const own = comparable(question.question)
  for (const other of earlier) {
    const q = other.question
    if (!sameSetting(question, q)) continue
    const how = repetition(own, comparable(q.question))
    // The same text is a duplicate whatever its documents: golden:check refuses it, so review could not append both.
    if (how === null || (how !== 'the same question' && !sameDocs(question, q))) continue
    const docs = q.answerDocIds.length === 0 ? '(none)' : q.answerDocIds.join(', ')
    const whose = sameDocs(question, q) ? 'the same answer documents' : 'other answer documents'
    return reason('duplicate', 'reject', `${how} as ${other.where} ${q.id} ("${q.question}"), with ${whose} ${docs}`)
  }
  return null
}

function docPassages(ids: readonly string[], byId: ReadonlyMap<string, CorpusDocument>): Passage[] {
  return ids.flatMap((id) => {
    const doc = byId.get(id)
    if (doc === undefined) return []
    const updated = doc.updated === undefined ? '' : ` (updated ${doc.updated})`
    return [{ id, text: `${doc.title}${updated}\n${doc.body}` }]
  })
}

/** The gold answer's claims the verifier finds unsupported (reject) or cannot decide (undecided) in the passages. */
async function claimReasons(
  question: GoldenQuestion,
  claims: readonly string[],
  passages: Passage[],
  verifier: Verifier,
): Promise<Reason[]> {
  const verdicts = await verifier.supportClaims(question, claims, passages)
  const docs = passages.map((p) => p.id).join(', ')
  const kinds = [
    ['unsupported', 'reject', `not supported by ${docs}`],
    ['undecided', 'undecided', `undecided against ${docs}`],
  ] as const
  return kinds.flatMap(([verdict, effect, what]) => {
    const these = verdicts.filter((v) => v.verdict === verdict)
    const message = `${what}: ${these.map((v) => `"${v.claim}" (${v.reason})`).join('; ')}`
    return these.length === 0 ? [] : [{ check: 'unsupported-claim', message, effect }]
  })
}

/**
 * A multi question one of whose documents answers it alone, as golden:check's loneHolders decides (a bridge document
 * the answer's terms need still counts).
 */
async function notReallyMulti(
  question: GoldenQuestion,
  claims: readonly string[],
  passages: Passage[],
  verifier: Verifier,
  terms: ReturnType<typeof corpusTerms>,
  evidence: ReadonlyMap<string, FactEvidence>,
): Promise<Reason | null> {
  for (const id of loneHolders(question, evidence, terms).holders) {
    const passage = passages.find((p) => p.id === id)!
    const verdicts = await verifier.supportClaims(question, claims, [passage])
    if (!verdicts.every((v) => v.verdict === 'supported')) continue
    const others = passages.filter((p) => p.id !== passage.id).map((p) => p.id)
    return reason(
      'not-really-multi',
      'reject',
      `${passage.id} alone supports every claim of the gold answer and holds every distinctive term of the question; ` +
        `${others.join(', ')} add${others.length === 1 ? 's' : ''} nothing: make it a single question on ${passage.id}, or ask for what only ${others.join(' / ')} state${others.length === 1 ? 's' : ''}`,
    )
  }
  return null
}

async function noneReasons(question: GoldenQuestion, { retrievers, verifier, mayRead }: VerifyInput): Promise<Reason[]> {
  const reasons: Reason[] = []
  const asker = question.probeDocIds === undefined ? undefined : question.userContext
  for (const retriever of retrievers) {
    // A probe's answer lies in documents its asker may not read, on purpose: only the readable rest may answer it.
    const passages = (await retriever.retrieve(question)).filter(
      (p) => asker === undefined || p.docId === undefined || mayRead(asker, p.docId),
    )
    const judged = await verifier.answers(question, passages)
    if (judged.verdict === 'answers')
      reasons.push(
        reason(
          'answerable-none',
          'reject',
          `${judged.passageId} (top ${passages.length} of ${retriever.name}) answers it: ${judged.reason}`,
        ),
      )
    else if (judged.verdict === 'undecided')
      reasons.push(reason('answerable-none', 'undecided', `top ${passages.length} of ${retriever.name}: ${judged.reason}`))
  }
  return reasons
}

async function contradictionReasons(
  question: GoldenQuestion,
  passages: Passage[],
  byId: ReadonlyMap<string, CorpusDocument>,
  verifier: Verifier,
): Promise<Reason[]> {
  const reasons: Reason[] = []
  const governing = question.governingDocId
  if (governing !== undefined) {
    const superseding = question.answerDocIds.filter(
      (id) => id !== governing && supersededIds(byId.get(id) ?? {}).includes(governing),
    )
    if (superseding.length > 0)
      reasons.push(
        reason(
          'governing',
          'reject',
          `governingDocId ${governing} is superseded by ${superseding.join(', ')} (its front matter says so)`,
        ),
      )
  }
  const judged = await verifier.disagreement(question, passages)
  if (judged.verdict === 'agree')
    reasons.push(reason('contradiction-agrees', 'reject', `its documents do not disagree: ${judged.reason}`))
  else if (judged.verdict === 'undecided') reasons.push(reason('contradiction-agrees', 'undecided', judged.reason))
  else if (governing !== undefined && judged.governingDocId !== null && judged.governingDocId !== governing)
    reasons.push(
      reason(
        'governing',
        'undecided',
        `governingDocId is ${governing} but the judge reads ${judged.governingDocId} as governing: ${judged.reason}`,
      ),
    )
  return reasons
}

/** golden:check's rules on the candidates that load (duplicates are verify's own check, with answer documents). */
function lintReasons(input: VerifyInput, questions: readonly GoldenQuestion[]): Map<string, Reason[]> {
  const byQuestion = new Map<string, Reason[]>()
  const findings = lintGoldenSet({ questions, docs: input.docs, bestChunks: input.bestChunks, mayRead: input.mayRead })
  for (const f of findings) {
    if (f.questionId === null || f.rule === 'duplicate-question') continue
    const reasons = byQuestion.get(f.questionId) ?? []
    reasons.push({
      check: `golden-check:${f.rule}`,
      message: `${f.message} (fix: ${f.fix})`,
      effect: RULES[f.rule].severity === 'error' ? 'reject' : 'note',
    })
    byQuestion.set(f.questionId, reasons)
  }
  return byQuestion
}

/**
 * Every check on every candidate, in file order, one verdict each. A schema break, repeated id or unknown document
 * rejects on that alone (the other checks need a valid question).
 */
export async function verifyCandidates(input: VerifyInput): Promise<VerifiedCandidate[]> {
  const byId = new Map(input.docs.map((doc) => [doc.id, doc]))
  const terms = corpusTerms(input.docs)
  const evidence = corpusEvidence(input.docs, quantityEvidence)
  const seenIds = new Map<string, string>()
  const earlier: { where: string; question: GoldenQuestion }[] = []
  const checkable: GoldenQuestion[] = []
  const base = input.candidates.map((candidate): { candidate: Candidate; reasons: Reason[]; question: GoldenQuestion | null } => {
    const reasons: Reason[] = candidate.problems.map((message) => ({ check: 'schema', message, effect: 'reject' }))
    const question = candidate.question
    if (question === null) return { candidate, reasons, question: null }
    const first = seenIds.get(question.id)
    if (first !== undefined) reasons.push(reason('duplicate-id', 'reject', `id ${question.id} is already used at ${first}`))
    else seenIds.set(question.id, candidate.where)
    const unknown = question.answerDocIds.filter((id) => !byId.has(id))
    if (unknown.length > 0) {
      reasons.push(reason('unknown-doc', 'reject', `${unknown.join(', ')}: not a document of the corpus`))
      return { candidate, reasons, question: null }
    }
    if (first === undefined) checkable.push(question)
    return { candidate, reasons, question }
  })
  const lint = lintReasons(input, checkable)
  const golden = input.golden.map((question) => ({ where: 'golden-set question', question }))
  const results: VerifiedCandidate[] = []
  for (const { candidate, reasons, question } of base) {
    if (question !== null) {
      const leak = leakedAnswer(question)
      if (leak) reasons.push(leak)
      const againstGolden = golden.filter(
        (g) => !(g.question.id === question.id && normalisedText(g.question.question) === normalisedText(question.question)),
      )
      const duplicate = duplicateOf(question, [...earlier, ...againstGolden])
      if (duplicate) reasons.push(duplicate)
      earlier.push({ where: 'candidate', question })
      reasons.push(...(await questionReasons(question, input, byId, terms, evidence)))
      if (seenIds.get(question.id) === candidate.where) reasons.push(...(lint.get(question.id) ?? []))
    }
    results.push({ candidate, status: statusOf(reasons), reasons })
  }
  return results
}

/** The checks that read the documents or ask the verifier. */
async function questionReasons(
  question: GoldenQuestion,
  input: VerifyInput,
  byId: ReadonlyMap<string, CorpusDocument>,
  terms: ReturnType<typeof corpusTerms>,
  evidence: ReadonlyMap<string, FactEvidence>,
): Promise<Reason[]> {
  if (question.type === 'none') return noneReasons(question, input)
  const reasons: Reason[] = []
  const passages = docPassages(question.answerDocIds, byId)
  if (question.goldAnswer !== undefined) {
    const claims = splitClaims(question.goldAnswer)
    const support = await claimReasons(question, claims.length > 0 ? claims : [question.goldAnswer], passages, input.verifier)
    reasons.push(...support)
    if (question.type === 'multi' && !support.some((r) => r.effect === 'reject')) {
      const lone = await notReallyMulti(question, claims, passages, input.verifier, terms, evidence)
      if (lone) reasons.push(lone)
    }
  }
  if (question.type === 'contradiction') reasons.push(...(await contradictionReasons(question, passages, byId, input.verifier)))
  return reasons
}
