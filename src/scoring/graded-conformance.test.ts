import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import { finishImport } from '../golden/formats/imported-question.ts'
import { goldenSetText } from '../golden/golden-set-text.ts'
import { importTrec } from '../golden/formats/trec-qrels.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { round4 } from '../statistics/descriptive.ts'
import type { SystemAnswer } from '../system/rag-system.ts'
import { failureMessage } from '../testing/failure-message.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { gradesOf, relevantDocIds } from './retrieval/graded-relevance.ts'
import { gradedDocNdcgAt10, gradedNdcgAt10 } from './retrieval/ndcg-at-10.ts'
import { recallAtK } from './retrieval/recall-at-k.ts'
import { reciprocalRank } from './retrieval/reciprocal-rank.ts'
import { scoreRetrieval } from './score-retrieval.ts'

// The suite's own per-question scoring, fed golden questions built from trec_eval's graded test qrels
// (../shared/trec/qrels.rel_level) and its run (results.test), against the values trec_eval 10.0-rc3
// printed for them (expected.graded.rr_ndcg10_recall.txt). Each document is one chunk, so the chunk-level
// nDCG@10 must equal ndcg_cut_10 as well as the doc-level one.

const SHARED = new URL('../../../shared/trec/', import.meta.url)
const shared = (name: string): string => {
  const path = fileURLToPath(new URL(name, SHARED))
  expect(existsSync(path), `missing conformance file ${path}`).toBe(true)
  return path
}
const lines = (name: string) =>
  readFileSync(shared(name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/))

/** trec_eval's values by `measure qid`. */
const expected = new Map(
  lines('expected.graded.rr_ndcg10_recall.txt').map(([measure, qid, value]) => [`${measure} ${qid}`, Number(value)]),
)
const QIDS = ['301', '302', '303']

/** Judgements by query: docno -> rel (-1 unjudged, 0 not relevant, 1..4 graded), in file order. */
const qrels = new Map<string, Map<string, number>>()
for (const [qid, , docno, rel] of lines('qrels.rel_level')) {
  const judged = qrels.get(qid!) ?? new Map<string, number>()
  judged.set(docno!, Number(rel))
  qrels.set(qid!, judged)
}

/** The run as trec_eval ranks it: by score, highest first; ties by docno, descending byte order. */
const runs = new Map<string, { docno: string; score: number }[]>()
for (const [qid, , docno, , score] of lines('results.test')) {
  const ranked = runs.get(qid!) ?? []
  ranked.push({ docno: docno!, score: Number(score) })
  runs.set(qid!, ranked)
}
for (const ranked of runs.values())
  ranked.sort((a, b) => b.score - a.score || (a.docno < b.docno ? 1 : a.docno > b.docno ? -1 : 0))

/** What a system would have answered: the run's documents as ranked chunks, one chunk each. */
function answerOf(qid: string): SystemAnswer {
  const ranked = runs.get(qid)!.map(({ docno, score }) => ({ chunkId: docno, docId: docno, score, tokens: 1, text: docno }))
  return { ranked, context: [] }
}

/** Every document of the qrels and the run, one chunk each. */
const allDocnos = new Set([
  ...[...qrels.values()].flatMap((judged) => [...judged.keys()]),
  ...[...runs.values()].flat().map((r) => r.docno),
])
const oneChunkEach = new Map([...allDocnos].map((docno) => [docno, 1]))

/** A golden question as a person would write it from the judgements: every judged grade kept, unjudged (-1) left out. */
function questionOf(qid: string): GoldenQuestion {
  const judged = [...qrels.get(qid)!].filter(([, rel]) => rel >= 0)
  return {
    id: qid,
    type: 'multi',
    question: `topic ${qid}`,
    answerDocIds: judged.filter(([, rel]) => rel >= 1).map(([docno]) => docno),
    relevance: Object.fromEntries(judged),
    goldAnswer: 'not needed for retrieval',
  }
}

/** The question's outcome at recall@5 and @10 against trec_eval's row, rounded as a report rounds it. */
function expectOutcomeMatches(question: GoldenQuestion, qid: string): void {
  const at5 = scoreRetrieval(question, answerOf(qid), oneChunkEach, { k: 5 })
  const at10 = scoreRetrieval(question, answerOf(qid), oneChunkEach, { k: 10 })
  const want = (measure: string) => round4(expected.get(`${measure} ${qid}`)!)
  expect(
    [at10.reciprocalRank, at10.ndcg10, at10.docNdcg10, at5.recallAtK, at10.recallAtK],
    `query ${qid}: recip_rank, ndcg_cut_10 (chunk, doc), recall_5, recall_10`,
  ).toEqual([want('recip_rank'), want('ndcg_cut_10'), want('ndcg_cut_10'), want('recall_5'), want('recall_10')])
}

describe('graded relevance through the golden-set path = trec_eval with graded qrels (qrels.rel_level)', () => {
  const tempDirs = useTempDirs()

  it('the per-question metric functions give every per-query value and mean within 1e-9', () => {
    expect(expected.size).toBe(16)
    const sums = new Map<string, number>()
    for (const qid of QIDS) {
      const question = questionOf(qid)
      const ranked = answerOf(qid).ranked.map((chunk) => chunk.docId)
      const relevant = relevantDocIds(question, 1)
      const values: Record<string, number> = {
        recip_rank: reciprocalRank(ranked, relevant),
        recall_5: recallAtK(ranked, relevant, 5),
        recall_10: recallAtK(ranked, relevant, 10),
        ndcg_cut_10: gradedDocNdcgAt10(ranked, gradesOf(question)),
      }
      expect(gradedNdcgAt10(ranked, gradesOf(question), oneChunkEach)).toBeCloseTo(values.ndcg_cut_10!, 12)
      for (const [measure, value] of Object.entries(values)) {
        const want = expected.get(`${measure} ${qid}`)!
        expect(Math.abs(value - want), `${measure} ${qid}: ${value} vs trec_eval ${want}`).toBeLessThan(1e-9)
        sums.set(measure, (sums.get(measure) ?? 0) + value)
      }
    }
    for (const [measure, sum] of sums) {
      const want = expected.get(`${measure} all`)!
      expect(Math.abs(sum / QIDS.length - want), `${measure} all`).toBeLessThan(1e-9)
    }
  })

  it("scoreRetrieval's outcome carries trec_eval's values (4 decimals) for each query, grade 4 of query 301 included", () => {
    for (const qid of QIDS) expectOutcomeMatches(questionOf(qid), qid)
  })

  it('a golden set imported from the qrels (golden import --format trec), written and loaded, scores as trec_eval (302, 303)', () => {
    // 301 grades some documents 4, beyond the golden set's 0..3: the import names the first such line.
    const qrelsText = readFileSync(shared('qrels.rel_level'), 'utf8')
    const firstFour = qrelsText.split('\n').findIndex((line) => /^301 0 \S+ 4$/.test(line.trim())) + 1
    expect(firstFour).toBeGreaterThan(0)
    const topics = QIDS.map((qid) => `${qid}\ttopic ${qid}\n`).join('')
    expect(failureMessage(() => importTrec(qrelsText, 'qrels.rel_level', topics, 'topics.tsv')).split('\n')[0]).toBe(
      `qrels.rel_level:${firstFour}: rel 4 is above 3, the highest grade of a golden set (0..3): map the grades onto 0..3 first`,
    )

    const kept = qrelsText
      .split('\n')
      .filter((line) => /^30[23] /.test(line))
      .join('\n')
    const corpus: CorpusDocument[] = [...allDocnos].map((id) => ({ id, title: id, file: `${id}.md`, body: id }))
    const imported = finishImport(
      importTrec(kept, 'qrels.rel_level', '302\ttopic 302\n303\ttopic 303\n', 'topics.tsv'),
      'qrels.rel_level',
      corpus,
      {
        allowUnknown: false,
      },
    )
    const file = join(tempDirs.make('graded-golden-'), 'golden-set.json')
    writeFileSync(file, goldenSetText(imported.questions, './golden-set.schema.json'))
    const golden = loadGoldenSet(file, corpus)
    // 302 judges 77 documents 3, 303 eight documents 2: both kept as grades; 0 and -1 judgements left out.
    expect(golden.map((q) => [q.id, q.type, new Set(Object.values(q.relevance ?? {})), q.answerDocIds.length])).toEqual([
      ['302', 'multi', new Set([3]), 77],
      ['303', 'multi', new Set([2]), 8],
    ])
    for (const question of golden) expectOutcomeMatches(question, question.id)
  })
})

describe('graded relevance, hand-worked', () => {
  // answer docs a (3), c (2), b (1); d judged not relevant (0). Ranked d, b, c, a; context c, a.
  const question: GoldenQuestion = {
    id: 'q',
    type: 'multi',
    question: 'q?',
    answerDocIds: ['a', 'b', 'c'],
    relevance: { a: 3, b: 1, c: 2, d: 0 },
    goldAnswer: 'g.',
  }
  const chunk = (docId: string) => ({ chunkId: `${docId}#1`, docId, score: 1, tokens: 1, text: docId })
  const output: SystemAnswer = { ranked: ['d', 'b', 'c', 'a'].map(chunk), context: ['c', 'a'].map(chunk) }
  const chunks = new Map([
    ['a', 2],
    ['b', 1],
    ['c', 1],
    ['d', 4],
  ])

  it('nDCG@10 takes the grades as gains whatever relevantGrade is', () => {
    // doc level: DCG = 0 + 1/log2(3) + 2/log2(4) + 3/log2(5); ideal 3, 2, 1 = 3 + 2/log2(3) + 1/log2(4)
    const docLevel = (1 / Math.log2(3) + 1 + 3 / Math.log2(5)) / (3 + 2 / Math.log2(3) + 0.5)
    // chunk level: the same DCG (one chunk per document ranked); ideal a's two chunks at 3, c's at 2, b's at 1
    // = 3 + 3/log2(3) + 2/log2(4) + 1/log2(5) (d's four chunks are grade 0)
    const chunkLevel = (1 / Math.log2(3) + 1 + 3 / Math.log2(5)) / (3 + 3 / Math.log2(3) + 1 + 1 / Math.log2(5))
    for (const relevantGrade of [1, 2, 3]) {
      const outcome = scoreRetrieval(question, output, chunks, { k: 3, relevantGrade })
      expect([outcome.docNdcg10, outcome.ndcg10]).toEqual([round4(docLevel), round4(chunkLevel)])
    }
  })

  it('hits, reciprocal rank and recall@k count the documents graded relevantGrade or more', () => {
    const at = (relevantGrade: number) => {
      const o = scoreRetrieval(question, output, chunks, { k: 3, relevantGrade })
      return [o.hit, o.reciprocalRank, o.recallAtK]
    }
    // 1: a, b, c relevant: b (rank 2) first; b is not in the context; top 3 holds b, c of 3
    expect(at(1)).toEqual([false, 0.5, round4(2 / 3)])
    // 2: a, c: c (rank 3) first; both in the context; top 3 holds c of 2
    expect(at(2)).toEqual([true, round4(1 / 3), 0.5])
    // 3: a only, at rank 4
    expect(at(3)).toEqual([true, 0.25, 0])
    // RAGAS's id-based context recall keeps every answer doc (RAGAS has no grades): c and a of a, b, c
    expect(scoreRetrieval(question, output, chunks, { k: 3, relevantGrade: 3 }).idBasedContextRecall).toBe(round4(2 / 3))
  })

  it('carries the grades in the outcome of a graded question only', () => {
    expect(scoreRetrieval(question, output, chunks, { k: 3 }).relevance).toEqual({ a: 3, b: 1, c: 2, d: 0 })
    const { relevance: _, ...ungraded } = question
    expect('relevance' in scoreRetrieval(ungraded, output, chunks, { k: 3 })).toBe(false)
  })

  it('an ungraded question scores as if every answer doc were grade 1', () => {
    const { relevance: _, ...ungraded } = question
    const asOnes = { ...ungraded, relevance: { a: 1, b: 1, c: 1 } }
    const strip = ({ relevance: _r, ...rest }: ReturnType<typeof scoreRetrieval>) => rest
    expect(strip(scoreRetrieval(ungraded, output, chunks, { k: 3 }))).toEqual(
      strip(scoreRetrieval(asOnes, output, chunks, { k: 3 })),
    )
  })
})

describe('relevantGrade in a run', () => {
  it('stops before the system is asked when a question has nothing graded relevantGrade or more (this repository: all ungraded)', async () => {
    const { loadProjectConfig } = await import('../config/load-project-config.ts')
    const { evaluate } = await import('../run/evaluate.ts')
    const project = await loadProjectConfig()
    const message = await evaluate(project, { tier: 'retrieval', env: { EVAL_RELEVANT_GRADE: '2' } }).then(
      () => 'resolved',
      (error: Error) => `${error.name}: ${error.message}`,
    )
    expect(message.split('\n')[0]).toBe(
      `InputError: ${project.goldenSet}: question q-001: no document is graded 2 or more (relevantGrade 2), so nothing counts as relevant: grade its best document 2 or more in "relevance", or lower relevantGrade`,
    )
  })
})
