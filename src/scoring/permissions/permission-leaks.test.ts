import { describe, expect, it } from 'vitest'
import type { RetrievedChunk } from '../../system/rag-system.ts'
import { permissionLeaks } from './permission-leaks.ts'
import { copiedDocuments, verbatimSpanOwners } from './verbatim-spans.ts'

const chunk = (docId: string, n = 0): RetrievedChunk => ({ chunkId: `${docId}#${n}`, docId, score: 1, tokens: 10, text: '' })
const mayRead = (docId: string) => !docId.startsWith('globex/')

describe('permission leaks of one answer', () => {
  it('names each forbidden document once per place: stages by numbered name, ranking, context, citation, answer', () => {
    const [acme, globex, globex2] = [chunk('acme/a'), chunk('globex/b'), chunk('globex/b', 1)]
    const leaks = permissionLeaks(
      {
        stages: [
          { name: 'retrieve', ranked: [globex, acme, globex2] },
          { name: 'retrieve', ranked: [acme] },
          { name: 'rerank', ranked: [acme, globex] },
        ],
        ranked: [acme, globex],
        context: [acme, globex],
        // [2] cites the context's second chunk: globex/b.
        answer: 'Invoices are due on the 12th [1]. Cards are accepted [2].',
      },
      mayRead,
      ['globex/c', 'acme/a'],
    )
    expect(leaks).toEqual([
      { docId: 'globex/b', where: 'stage', stage: 'retrieve' },
      { docId: 'globex/b', where: 'stage', stage: 'rerank' },
      { docId: 'globex/b', where: 'ranked' },
      { docId: 'globex/b', where: 'context' },
      { docId: 'globex/b', where: 'citation' },
      { docId: 'globex/c', where: 'answer' },
    ])
  })

  it('reads span citations by chunk id, and finds nothing in a clean answer', () => {
    const output = { ranked: [chunk('acme/a')], context: [chunk('acme/a'), chunk('globex/b')], answer: 'Due on the 12th.' }
    expect(permissionLeaks({ ...output, citations: [{ start: 0, end: 3, chunkIds: ['globex/b#0'] }] }, mayRead)).toEqual([
      { docId: 'globex/b', where: 'context' },
      { docId: 'globex/b', where: 'citation' },
    ])
    expect(permissionLeaks({ ranked: [chunk('acme/a')], context: [chunk('acme/a')], answer: 'x' }, mayRead)).toEqual([])
  })
})

describe('verbatim spans', () => {
  const globex = 'Globex invoices are due on the first Monday of each quarter and may be paid by card.'
  const shared = 'Every invoice is due on the first Monday of each quarter and may be paid by card or transfer.'
  it('a run of 10 words the answer copies names its document; one a readable document also holds does not', () => {
    const answer = 'As the policy says, Globex invoices are due on the first Monday of each quarter [1].'
    const documents = [
      { docId: 'globex/b', text: globex },
      { docId: 'acme/a', text: 'Acme invoices are due on the twelfth.' },
    ]
    const owners = verbatimSpanOwners([answer], documents)
    // "globex invoices are due on the first monday of each" and "invoices ... of each quarter": 2 runs of 10 words.
    expect([...owners].filter(([, docs]) => docs.size > 0)).toEqual([
      ['globex invoices are due on the first monday of each', new Set(['globex/b'])],
      ['invoices are due on the first monday of each quarter', new Set(['globex/b'])],
    ])
    expect(copiedDocuments(answer, owners, mayRead)).toEqual(['globex/b'])
    // The same words in a document the asker may read: the answer may have them from there.
    const common = 'Due on the first Monday of each quarter and may be paid by card, as agreed.'
    const fromShared = verbatimSpanOwners([common], [...documents, { docId: 'shared/c', text: shared }])
    expect(copiedDocuments(common, fromShared, mayRead)).toEqual([])
    // Nine words in common are not a copy.
    expect(copiedDocuments('invoices are due on the first Monday of each', owners, mayRead)).toEqual([])
  })
})
