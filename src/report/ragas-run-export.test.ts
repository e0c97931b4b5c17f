import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ragEvalInProcess } from '../cli/testing/rag-eval-in-process.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { importRagas, RagasRecordSchema } from '../golden/formats/ragas.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { evaluate } from '../run/evaluate.ts'
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { chunkCorpus } from '../builtin/chunker.ts'
import { CONTEXTS_FILE } from './context-sidecar.ts'
import { writeReports } from './write-report.ts'
import { stripCitationMarkers } from '../contract/citation-markers.ts'

const tempDirs = useTempDirs()
const project = await loadProjectConfig()
const corpus = loadCorpus('corpus')
const golden = () => loadGoldenSet('evals/golden-set.json', corpus)

async function rag(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout: out, stderr: err } = await ragEvalInProcess(argv)
  return { code, out, err }
}

describe("the report's RAGAS id-based metrics", () => {
  it("score the context's document ids against the answer documents, per question (hand-worked)", () => {
    const question = { id: 'q', type: 'multi' as const, question: 'q?', answerDocIds: ['a', 'b'] }
    const chunk = (docId: string, n: number) => ({ chunkId: `${docId}#${n}`, docId, score: 1, tokens: 10, text: `${docId} ${n}` })
    // Context docs a, a, c: distinct {a, c}. Recall: {a, b} ∩ {a, c} = 1 of 2 = 0.5. Precision: 1 of 2 distinct retrieved = 0.5.
    const context = [chunk('a', 1), chunk('a', 2), chunk('c', 1)]
    const outcome = scoreRetrieval(question, { ranked: context, context }, undefined, { k: 10 })
    expect([outcome.idBasedContextRecall, outcome.idBasedContextPrecision]).toEqual([0.5, 0.5])
    // A none question: recall undefined (null, RAGAS NaN), precision 0 of 1.
    const none = scoreRetrieval({ ...question, type: 'none', answerDocIds: [] }, { ranked: context, context }, undefined, {
      k: 10,
    })
    expect([none.idBasedContextRecall, none.idBasedContextPrecision]).toEqual([null, 0])
  })
})

describe('rag-eval export --format ragas', () => {
  it('writes the run as RAGAS samples that import back to the golden set and carry the packed context', async () => {
    const report = await evaluate(project, { tier: 'full', env: {}, baselineRoot: null })
    const dir = tempDirs.make('ragas-export-')
    const written = writeReports(report, dir)
    expect(written.contexts).toBe(join(dir, CONTEXTS_FILE))
    // latest.json stays lean: the texts are in the sidecar only.
    expect(readFileSync(written.json, 'utf8')).not.toMatch(/"text":/)

    const out = join(dir, 'ragas.jsonl')
    const result = await rag('export', '--format', 'ragas', '--report', written.json, '--out', out)
    const printed = result.out
    expect(result).toMatchObject({ code: 0, err: '' })
    const noneCount = report.questions.filter((q) => q.type === 'none').length
    expect(noneCount).toBe(golden().filter((q) => q.type === 'none').length)
    expect(printed).toBe(
      [
        `wrote ${out}: 120 RAGAS samples`,
        `load it with: EvaluationDataset.from_jsonl("${out}")`,
        `RAGAS drops "id": its results come back in the file's row order (row i of result.to_pandas() is line i)`,
        `${noneCount} none questions (reference_context_ids []): keep them out of ID-based context metrics with EvaluationDataset([s for s in dataset if s.reference_context_ids])`,
        '',
      ].join('\n'),
    )
    const text = readFileSync(out, 'utf8')
    const samples = text
      .trimEnd()
      .split('\n')
      .map((line) => RagasRecordSchema.parse(JSON.parse(line)))
    expect(samples).toHaveLength(120)

    // Back through the golden-set importer: the same ids, questions, gold answers and answer documents.
    const imported = importRagas(text, out, corpus)
    expect(imported.questions.map((q) => [q.id, q.question, q.goldAnswer ?? null, q.sources.map((s) => s.docId)])).toEqual(
      golden().map((q) => [q.id, q.question, q.goldAnswer ?? null, q.answerDocIds]),
    )
    // Every row carries a reference (RAGAS's reference-based metrics need one): a none question's is the refusal expected.
    const rows = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; reference?: string; reference_context_ids: string[] })
    report.questions.forEach((q, i) => {
      expect(rows[i]!.id).toBe(q.id)
      if (q.type === 'none' && q.goldAnswer === null)
        expect(rows[i]).toMatchObject({
          reference: 'The provided documents do not contain the answer to this question.',
          reference_context_ids: [],
        })
      else expect(rows[i]!.reference).toBe(q.goldAnswer ?? undefined)
    })
    expect(rows.filter((row) => !row.reference)).toEqual([])

    // The contexts are the built-in chunker's texts of the chunks the report packed, in packing order.
    const chunkText = new Map(chunkCorpus(corpus, report.config).map((chunk) => [chunk.chunkId, chunk.text]))
    report.questions.forEach((q, i) => {
      expect(samples[i]!.retrieved_contexts).toEqual(q.context.map((entry) => chunkText.get(entry.chunkId)))
      expect(samples[i]!.retrieved_context_ids).toEqual(q.contextDocIds)
      // RAGAS judges the answer without its citation markers, as this suite does.
      expect((JSON.parse(text.split('\n')[i]!) as { response?: string }).response).toBe(
        q.answer === null ? undefined : stripCitationMarkers(q.answer),
      )
    })
  })

  it('refuses a contexts file from another run, and names a missing one', async () => {
    const report = await evaluate(project, { tier: 'retrieval', env: {}, baselineRoot: null })
    const dir = tempDirs.make('ragas-export-')
    const { json, contexts } = writeReports(report, dir)
    const lines = readFileSync(contexts!, 'utf8').split('\n')
    const first = JSON.parse(lines[0]!) as { id: string; context: unknown[] }
    writeFileSync(contexts!, [JSON.stringify({ ...first, context: first.context.slice(1) }), ...lines.slice(1)].join('\n'))
    const expected = report.questions[0]!.context.map((entry) => entry.chunkId)
    const mismatch = await rag('export', '--format', 'ragas', '--report', json, '--out', join(dir, 'ragas.jsonl'))
    expect(mismatch.code).toBe(2)
    expect(mismatch.err).toContain(
      `${contexts}: question ${first.id} has context [${expected.slice(1).join(', ')}], the report [${expected.join(', ')}]; it is not from the run of the report: run the evaluation again (it writes both)`,
    )
    expect(existsSync(join(dir, 'ragas.jsonl'))).toBe(false)

    const notJson = await rag(
      'export',
      '--format',
      'ragas',
      '--report',
      json,
      '--contexts',
      join(dir, 'latest.md'),
      '--out',
      join(dir, 'ragas.jsonl'),
    )
    expect(notJson.code).toBe(2)
    expect(notJson.err).toContain(`${join(dir, 'latest.md')}:1:1: invalid JSON`)

    rmSync(contexts!)
    const missing = await rag('export', '--format', 'ragas', '--report', json, '--out', join(dir, 'ragas.jsonl'))
    expect(missing.code).toBe(2)
    expect(missing.err).toContain(
      `${contexts}: not found; run the evaluation (it writes contexts.jsonl beside latest.json), or name the file with --contexts`,
    )
  })
})
