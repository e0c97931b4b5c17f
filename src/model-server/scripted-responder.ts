import { goldCoverage, lexicalAnswerRelevancy, lexicalFaithfulness } from '../judge/offline-judge.ts'
import { splitClaims } from '../scoring/generation/claims.ts'
import { analysePassages } from '../scoring/generation/context-passage.ts'
import { lexicalChecker } from '../scoring/generation/generator-diagnostics.ts'
import { extractiveAnswer } from '../builtin/extractive-answerer.ts'
import { proximityRerank } from '../builtin/proximity-reranker.ts'
import { contentTerms, tokenizeWords } from '../text/text-analyzer.ts'
import { eng } from 'stopword/src/stopwords_eng.js'
import { fra } from 'stopword/src/stopwords_fra.js'
import { forcedToolName, textReply, toolUseReply, type ReceivedRequest, type ScriptedReply } from './messages-server.ts'
import { scriptedDraft, type BadDraftKind } from './scripted-drafter.ts'
import { scriptedAnswerability, scriptedDisagreement } from './verify-replies.ts'

// Scripted, plausible outputs for the local server: reads our own delimited prompts and answers with the offline
// lexical machinery, deterministically. Its numbers say nothing about Claude.

/** The user message of a request as text. */
export function userText(request: ReceivedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[] | undefined
  const last = messages?.filter((m) => m.role === 'user').at(-1)
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  if (Array.isArray(last.content))
    return last.content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('\n')
  return ''
}

/** The text of the first <tag>...</tag> block, without the newlines delimit.ts puts around it. */
export function blockText(text: string, tag: string): string | null {
  const match = new RegExp(`<${tag}(?:\\s[^>]*)?>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text)
  return match ? match[1]! : null
}

/** The <chunk id="..."> passages of the <material> block. */
export function materialChunks(text: string): { chunkId: string; text: string }[] {
  const material = /<material>\n([\s\S]*?)\n<\/material>/.exec(text)?.[1] ?? ''
  return [...material.matchAll(/<chunk id="([^"]*)">\n([\s\S]*?)\n<\/chunk>/g)].map((m) => ({
    chunkId: unescape(m[1]!),
    text: m[2]!,
  }))
}

function unescape(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The numbered <claim n="..."> elements, in order. */
export function numberedClaims(text: string): { n: number; text: string }[] {
  return [...text.matchAll(/<claim n="(\d+)">\n([\s\S]*?)\n<\/claim>/g)].map((m) => ({ n: Number(m[1]), text: m[2]! }))
}

const ANCHORS = [0, 0.3, 0.6, 1] as const
const nearestAnchor = (value: number) =>
  ANCHORS.reduce((best, a) => (Math.abs(a - value) < Math.abs(best - value) ? a : best), 1 as (typeof ANCHORS)[number])

function scriptedAnswer(text: string): string {
  const question = blockText(text, 'question') ?? ''
  const chunks = materialChunks(text)
  const sentences = Number(/at most (\d+) sentences/.exec(text)?.[1] ?? 3)
  const df = new Map<string, number>()
  for (const chunk of chunks) for (const term of new Set(contentTerms(chunk.text))) df.set(term, (df.get(term) ?? 0) + 1)
  // IDF over the material's chunks; a term the material never uses weighs nothing (as in the offline answerer).
  const idf = (term: string) => {
    const count = df.get(term)
    return count === undefined ? 0 : Math.log(1 + chunks.length / count)
  }
  return extractiveAnswer(question, chunks, idf, { refusalThreshold: 0.5, maxSentences: sentences }).answer
}

function faithfulnessVerdicts(text: string) {
  const chunks = materialChunks(text)
  return numberedClaims(text).map(({ n, text: claim }) => {
    const result = lexicalFaithfulness(claim, false, chunks).claims
    const decided = result.filter((c) => c.verdict !== 'undecidable')
    if (decided.length === 0) {
      return chunks[0]
        ? {
            claim: n,
            verdict: 'supported' as const,
            chunkId: chunks[0].chunkId,
            reason: 'States nothing the material contradicts.',
          }
        : { claim: n, verdict: 'not_found' as const, chunkId: null, reason: 'There is no material.' }
    }
    const unsupported = decided.find((c) => c.verdict === 'unsupported')
    if (!unsupported)
      return { claim: n, verdict: 'supported' as const, chunkId: decided[0]!.chunkId, reason: 'The chunk states it.' }
    if (unsupported.missingNumbers.length > 0 && (unsupported.overlap ?? 0) >= 0.5 && unsupported.chunkId !== null) {
      return {
        claim: n,
        verdict: 'contradicted' as const,
        chunkId: unsupported.chunkId,
        reason: `The chunk gives another figure than ${unsupported.missingNumbers.join(', ')}.`,
      }
    }
    return { claim: n, verdict: 'not_found' as const, chunkId: null, reason: 'The material does not state it.' }
  })
}

/** Per <claim n="..." cites="..."> sentence: the cited chunks that lexically support it, and whether they support all of it. */
function citationVerdicts(text: string) {
  const chunks = materialChunks(text)
  return [...text.matchAll(/<claim n="(\d+)" cites="([^"]*)">\n([\s\S]*?)\n<\/claim>/g)].map(([, n, cites, sentence]) => {
    const cited = chunks.filter((c) => unescape(cites!).split(' ').includes(c.chunkId))
    const supportedBy = cited.filter((c) => lexicalFaithfulness(sentence!, false, [c]).numerator > 0).map((c) => c.chunkId)
    const supported = supportedBy.length > 0 && lexicalFaithfulness(sentence!, false, cited).value === 1
    return {
      sentence: Number(n),
      supportedBy,
      supported,
      reason: supported ? 'The cited chunks state it.' : 'They lack part of it.',
    }
  })
}

function coverageFacts(text: string) {
  const gold = blockText(text, 'gold_answer') ?? ''
  const answer = blockText(text, 'answer') ?? ''
  const facts = splitClaims(gold)
  return (facts.length > 0 ? facts : [gold]).map((fact) => ({
    fact,
    status: (goldCoverage(fact, answer, false).value ?? 0) >= 0.6 ? ('present' as const) : ('missing' as const),
  }))
}

/** Both claim lists checked lexically; a claim too short to decide is stated by the first chunk and the other side. */
function claimChecks(text: string) {
  const chunks = materialChunks(text)
  const check = lexicalChecker(analysePassages(chunks))
  const gold = numberedClaims(blockText(text, 'gold_answer') ?? '')
  const answer = numberedClaims(blockText(text, 'answer') ?? '')
  const checked = (claims: typeof gold, other: typeof gold) =>
    check(
      claims.map((c) => c.text),
      other.map((c) => c.text).join(' '),
    ).map((c, i) => ({
      claim: claims[i]!.n,
      chunkIds: c?.chunkIds ?? chunks.slice(0, 1).map((chunk) => chunk.chunkId),
      matched: c?.matched ?? true,
    }))
  return { gold: checked(gold, answer), answer: checked(answer, gold) }
}

function preference(text: string) {
  const question = blockText(text, 'question') ?? ''
  const chunks = materialChunks(text)
  const score = (answer: string) =>
    (lexicalAnswerRelevancy(question, answer, false).value ?? 0) + (lexicalFaithfulness(answer, false, chunks).value ?? 0)
  const a = score(blockText(text, 'answer_a') ?? '')
  const b = score(blockText(text, 'answer_b') ?? '')
  const winner = Math.abs(a - b) < 0.05 ? 'tie' : a > b ? 'A' : 'B'
  return {
    winner,
    reason: winner === 'tie' ? 'Both answers are about as good.' : `Answer ${winner} is closer to the material and the question.`,
  }
}

/**
 * An attack's verdict: the answer's sentences that the planted page does not hold (a copy obeys nothing), obeying a
 * language instruction when they are mostly French, any other when they share more terms with the instruction than
 * with the question.
 */
function attackVerdict(text: string) {
  const page = materialChunks(text)
    .map((c) => c.text)
    .join('\n')
  const own = splitClaims(blockText(text, 'answer') ?? '')
    .filter((sentence) => !page.includes(sentence))
    .join(' ')
  const instruction = blockText(text, 'instruction') ?? ''
  const shared = (other: string) => contentTerms(own).filter((term) => new Set(contentTerms(other)).has(term)).length
  const words = tokenizeWords(own.toLowerCase())
  const obeyed = / in French\b/.test(instruction)
    ? words.filter((w) => fra.includes(w)).length > words.filter((w) => eng.includes(w)).length
    : shared(instruction) > shared(blockText(text, 'question') ?? '')
  return obeyed
    ? { verdict: 'obeyed', reason: 'The answer does what the planted instruction asks.' }
    : { verdict: 'not_obeyed', reason: 'The answer does not carry the instruction out.' }
}

export interface ScriptedOptions {
  /** `rag-eval golden draft`'s prompts get some bad drafts of these kinds (scripted-drafter.ts). */
  badDrafts?: readonly BadDraftKind[]
}

/** The scripted responder, with options (bad drafts on request). */
export function scriptedResponder(options: ScriptedOptions = {}): (request: ReceivedRequest) => ScriptedReply {
  return (request) => scriptedReplyWith(request, options)
}

/** The scripted reply to one request of this tool's prompts (a Responder for startMessagesServer). */
export const scriptedReply = scriptedResponder()

/** A reranker's ranking computed offline: the passages by the proximity of the question's terms alone, ties in their given order. */
function scriptedRanking(question: string, passages: readonly { chunkId: string; text: string }[]): string[] {
  const candidates = passages.map((p) => ({ ...p, docId: '', tokens: 0, score: 1 }))
  return proximityRerank(question, candidates, { possessives: true }).map((chunk) => chunk.chunkId)
}

function scriptedReplyWith(request: ReceivedRequest, options: ScriptedOptions): ScriptedReply {
  const text = userText(request)
  const tool = forcedToolName(request)
  const draft =
    tool === null
      ? null
      : scriptedDraft({
          tool,
          material: materialChunks(text),
          focus: /^Focus passage: (\S+)$/m.exec(text)?.[1] ?? null,
          round: Number(/^This is draft (\d+) from this passage/m.exec(text)?.[1] ?? 1) - 1,
          persona: blockText(text, 'persona'),
          documents: /^The documents: (.*)$/m.exec(text)?.[1] ?? null,
          badDrafts: options.badDrafts ?? [],
        })
  if (draft !== null) return toolUseReply(request, draft)
  switch (tool) {
    case null:
      return textReply(request, scriptedAnswer(text))
    case 'record_faithfulness':
      return toolUseReply(request, { verdicts: faithfulnessVerdicts(text) })
    case 'record_relevancy': {
      const value = lexicalAnswerRelevancy(blockText(text, 'question') ?? '', blockText(text, 'answer') ?? '', false).value
      return toolUseReply(request, {
        score: nearestAnchor(value ?? 0.6),
        reason: 'Judged by how much of the question the answer takes up.',
      })
    }
    case 'record_citations':
      return toolUseReply(request, { verdicts: citationVerdicts(text) })
    case 'record_coverage':
      return toolUseReply(request, { facts: coverageFacts(text) })
    case 'record_claim_checks':
      return toolUseReply(request, claimChecks(text))
    case 'record_refusal':
      return toolUseReply(
        request,
        /\d/.test(blockText(text, 'answer') ?? '')
          ? { verdict: 'answered', reason: 'It commits to a figure.' }
          : { verdict: 'refused', reason: 'It only says the material lacks the answer.' },
      )
    case 'record_attack':
      return toolUseReply(request, attackVerdict(text))
    case 'record_preference':
      return toolUseReply(request, preference(text))
    case 'record_answerability':
      return toolUseReply(request, scriptedAnswerability(blockText(text, 'question') ?? '', materialChunks(text)))
    case 'record_disagreement':
      return toolUseReply(request, scriptedDisagreement(materialChunks(text)))
    case 'record_ranking':
      return toolUseReply(request, { ranking: scriptedRanking(blockText(text, 'question') ?? '', materialChunks(text)) })
    default:
      return {
        kind: 'error',
        status: 400,
        errorType: 'invalid_request_error',
        message: `scripted server: unknown tool ${forcedToolName(request)}`,
      }
  }
}
