import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { formatTable } from '../../common/format-table.ts'
import { contextHit } from '../../scoring/retrieval/context-hit.ts'
import { systemQuestionOf, type RagSystem } from '../../system/rag-system.ts'
import { contentTerms } from '../../text/text-analyzer.ts'

/** How many ranked chunks the preview shows. */
const PREVIEW_DEPTH = 10

export interface RankingPreview {
  rows: { rank: number; chunkId: string; docId: string; score: number; tokens: number; inContext: boolean }[]
  contextChunks: number
  contextTokens: number
  budgetTokens: number
  /** Whether the context holds what the question needs (the evaluation's hit); null for none questions. */
  hit: boolean | null
  /** One line on the hit, or for a none question on its nearest chunk. */
  verdict: string
}

/** Ranks a question and says whether its packed context hits, as the evaluation would score it. */
export async function previewRanking(question: GoldenQuestion, system: RagSystem, budgetTokens: number): Promise<RankingPreview> {
  const { ranked, context } = await system.answer(systemQuestionOf(question))
  const rows = ranked.slice(0, PREVIEW_DEPTH).map((chunk, index) => ({
    rank: index + 1,
    chunkId: chunk.chunkId,
    docId: chunk.docId,
    score: chunk.score,
    tokens: chunk.tokens,
    inContext: index < context.length,
  }))
  const contextDocIds = context.map((chunk) => chunk.docId)
  const contextTokens = context.reduce((sum, chunk) => sum + chunk.tokens, 0)
  const rankOf = (docId: string) => {
    const index = ranked.findIndex((chunk) => chunk.docId === docId)
    return index < 0 ? 'not ranked' : `best rank ${index + 1}`
  }
  let hit: boolean | null = null
  let verdict: string
  if (question.type === 'none') {
    const top = ranked[0]
    const shared =
      top === undefined
        ? []
        : [...new Set(contentTerms(question.question))].filter((term) => new Set(contentTerms(top.text)).has(term))
    verdict =
      top === undefined
        ? 'none question: no chunk shares a term with it, so any system refuses it (golden:check warns: too easy)'
        : `none question: the system should refuse; its nearest chunk ${top.chunkId} shares ${shared.length} ` +
          `content term${shared.length === 1 ? '' : 's'} ` +
          `(${shared.join(', ') || '-'})${shared.length < 2 ? ': too easy, golden:check warns' : ''}`
  } else {
    hit = contextHit({
      type: question.type,
      answerDocIds: question.answerDocIds,
      governingDocId: question.governingDocId,
      contextDocIds,
    })
    const needed =
      question.type === 'multi'
        ? question.answerDocIds
        : question.type === 'contradiction' && question.governingDocId
          ? [question.governingDocId]
          : question.answerDocIds
    const inContext = needed.filter((id) => contextDocIds.includes(id))
    const missing = needed.filter((id) => !contextDocIds.includes(id))
    verdict = hit
      ? `hit: yes, ${inContext.join(', ')} ${inContext.length === 1 ? 'is' : 'are'} in the context`
      : `hit: NO, ${missing.map((id) => `${id} (${rankOf(id)})`).join(', ')} not in the context`
  }
  return { rows, contextChunks: context.length, contextTokens, budgetTokens, hit, verdict }
}

/** The preview as the author sees it before saving: the top chunks with scores, what is in the context, the verdict. */
export function renderRankingPreview(preview: RankingPreview, question: GoldenQuestion): string {
  const answer = new Set(question.answerDocIds)
  const header = ['rank', 'chunk', 'score', 'tokens', 'in context', 'answer doc']
  const rows = preview.rows.map((row) => [
    String(row.rank),
    row.chunkId,
    row.score.toFixed(2),
    String(row.tokens),
    row.inContext ? 'yes' : '',
    row.docId === question.governingDocId ? 'governing' : answer.has(row.docId) ? 'yes' : '',
  ])
  return [
    `Top ${preview.rows.length} chunk${preview.rows.length === 1 ? '' : 's'} of the built-in system for ${question.id}:`,
    formatTable([header, ...rows], 'text'),
    `context: ${preview.contextChunks} ` +
      `chunk${preview.contextChunks === 1 ? '' : 's'}, ${preview.contextTokens} of ${preview.budgetTokens} tokens`,
    preview.verdict,
  ].join('\n')
}
