// A small RAG system of the kind a team writes: MiniSearch full-text search over paragraphs, documents
// visible only to the roles their front matter lists (userContext.role decides), follow-up questions searched
// with the conversation before them (history), and an extractive answer.
import MiniSearch from 'minisearch'
import { defineRagSystem, type RetrievedChunk } from 'rag-vitest-eval'

interface Paragraph {
  id: string
  docId: string
  title: string
  text: string
  roles: string[] | null
}

const REFUSAL = 'I could not find this in the documents you can access.'
/** Question words that carry no content: left out when judging whether the context covers the question. */
const STOPWORDS = new Set([
  'what',
  'when',
  'which',
  'where',
  'does',
  'with',
  'from',
  'that',
  'this',
  'have',
  'much',
  'many',
  'until',
  'into',
  'must',
  'over',
  'about',
  'and',
  'are',
  'how',
  'the',
  'can',
  'for',
  'may',
])
/** Share of the question's content words the context must contain before the system answers. */
const MIN_COVERAGE = 0.6

export default defineRagSystem(({ corpus, config }) => {
  const paragraphs: Paragraph[] = (corpus ?? []).flatMap((doc) => {
    const roles = Array.isArray(doc.metadata?.roles) ? (doc.metadata.roles as string[]) : null
    return doc.body
      .split(/\n\s*\n/)
      .map((text) => text.trim())
      .filter((text) => text.length > 0 && !text.startsWith('#'))
      .map((text, index) => ({ id: `${doc.id}#${index}`, docId: doc.id, title: doc.title, text, roles }))
  })
  const index = new MiniSearch<Paragraph>({
    fields: ['title', 'text'],
    storeFields: ['docId', 'text', 'roles'],
    searchOptions: { boost: { title: 2 } },
  })
  index.addAll(paragraphs)
  // RAG_EXAMPLE_BROKEN=1 breaks retrieval on purpose (the example's GATE=1 test): the ranking is reversed.
  const broken = process.env.RAG_EXAMPLE_BROKEN === '1'

  return {
    name: 'minisearch-rbac',
    async answer({ question, userContext, history }) {
      const role = typeof userContext?.role === 'string' ? userContext.role : 'employee'
      const visible = (roles: string[] | null) => roles === null || roles.includes(role)
      // A follow-up question ("and how many can be carried over?") is searched after the user's earlier turns.
      const earlier = (history ?? []).filter((turn) => turn.role === 'user').map((turn) => turn.content)
      const query = [...earlier, question].join(' ')
      const hits = index.search(query, { filter: (result) => visible(result.roles as string[] | null) })
      const ranked: RetrievedChunk[] = hits.map((hit) => ({
        chunkId: String(hit.id),
        docId: hit.docId as string,
        score: hit.score,
        text: hit.text as string,
        tokens: Math.ceil((hit.text as string).length / 4),
      }))
      if (broken) ranked.reverse()
      // Pack within the budget (the suite would do it too when `context` is left out).
      const context: RetrievedChunk[] = []
      let used = 0
      for (const chunk of ranked) {
        if (used + chunk.tokens > config.budgetTokens) break
        context.push(chunk)
        used += chunk.tokens
      }
      // Answer only when the context covers most of the content words asked (with the earlier turns); else refuse.
      const asked = new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOPWORDS.has(w)))
      const covered = new Set(
        hits.filter((hit) => context.some((c) => c.chunkId === String(hit.id))).flatMap((hit) => hit.queryTerms),
      )
      const coverage = asked.size === 0 ? 0 : [...asked].filter((w) => covered.has(w)).length / asked.size
      const answer =
        coverage >= MIN_COVERAGE
          ? context
              .slice(0, 2)
              .map((c) => c.text)
              .join(' ')
          : REFUSAL
      return { ranked, context, answer }
    },
  }
})
