import { describe, expect, it } from 'vitest'
import { createBuiltinSystem } from '../../builtin/builtin-system.ts'
import { loadProjectConfig } from '../../config/load-project-config.ts'
import { runKnobs } from '../../config/project-config.ts'
import { loadCorpus } from '../../load/corpus.ts'
import { toolUseReply } from '../../model-server/messages-server.ts'
import { scriptedReply } from '../../model-server/scripted-responder.ts'
import { localClient } from '../../model/testing/test-client.ts'
import { useScriptedServer } from '../../model/testing/use-scripted-server.ts'
import { topChunks } from '../verify/system-retriever.ts'
import { createModelVerifier } from '../verify/model-verifier.ts'
import { harvest } from './harvest.ts'

const local = useScriptedServer()
const docs = loadCorpus('fixtures/corpora/drafting')
const config = runKnobs(await loadProjectConfig(), {})
const system = createBuiltinSystem(docs, { ...config, generate: false })
const asked = { question: 'Which files can the bulk API accept?', flag: null, file: 'log.jsonl', line: 4 }

describe('harvest: the judge where a key is set', () => {
  it('a judge that cannot decide leaves the system’s first passage proposed, the judge’s error named', async () => {
    local.server.setResponder((r) =>
      (r.body.tool_choice as { name?: string }).name === 'record_answerability'
        ? toolUseReply(r, { verdict: 'answers', chunkId: 'nowhere#9', reason: 'x' })
        : scriptedReply(r),
    )
    const verifier = createModelVerifier(localClient(local.server), { model: 'claude-haiku-4-5-20251001', maxTokens: 512 })
    const result = await harvest({
      asked: [asked],
      golden: [],
      docs,
      max: 1,
      harvestedAt: '2026-12-03T10:00:00.000Z',
      retrieve: (query) => topChunks(system, query, 3),
      system: 'builtin',
      judge: {
        name: verifier.name,
        answers: (query, passages) =>
          verifier.answers(
            { ...query, type: 'none', answerDocIds: [] },
            passages.map((p) => ({ id: p.chunkId, text: p.text })),
          ),
      },
    })
    const [candidate] = result.candidates
    expect([candidate!.type, candidate!.answerDocIds, candidate!.goldAnswer]).toEqual([
      'single',
      ['guides/importing-data'],
      'The wizard accepts CSV files; the bulk API also accepts Parquet files.',
    ])
    expect(candidate!.notes).toBe(
      'harvested from log.jsonl:4; proposed: builtin ranks guides/importing-data#1 first; the gold answer is its sentence ' +
        'closest to the question (the judge could not decide: answerability judge: answers relies on "nowhere#9", which is ' +
        'not a chunk of the material; after one repair attempt: answers relies on "nowhere#9", which is not a chunk of the ' +
        'material); REVIEW: the type, the answer documents and the gold answer are proposals; check them against the documents',
    )
    expect(result.topics.map((t) => [t.docId, t.golden, t.groups.length])).toEqual([['guides/importing-data', 0, 1]])
  })
})
