import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenSetSchema } from '../contract/golden-set-schema.ts'
import { loadCorpusFrom } from '../load/corpus.ts'
import { validateGoldenSet } from '../load/golden-set.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { renderScaffold, scaffold } from './scaffold.ts'

const temp = useTempDirs()

describe('rag-eval init', () => {
  it('scaffolds an empty folder: config, golden set, system stub, corpus and vitest.config.ts', () => {
    const dir = temp.make('init-empty-')
    const result = scaffold(dir)
    expect(result.written).toEqual([
      'rag-eval.config.ts',
      'evals/golden-set.json',
      'evals/rag-system.ts',
      'evals/corpus/retention.md',
      'evals/corpus/plans.md',
      'evals/corpus/support/response-times.md',
      'vitest.config.ts',
    ])
    expect(result.kept).toEqual([])
    // The golden set is valid against the scaffolded corpus, ids from paths included (support/response-times).
    const corpus = loadCorpusFrom({ dir: join(dir, 'evals/corpus') }).documents
    const text = readFileSync(join(dir, 'evals/golden-set.json'), 'utf8')
    expect(GoldenSetSchema.parse(JSON.parse(text)).$schema).toBe('../node_modules/rag-vitest-eval/evals/golden-set.schema.json')
    const questions = validateGoldenSet(JSON.parse(text), 'golden-set.json', corpus)
    expect(questions.map((q) => `${q.id}:${q.type}`)).toEqual(['q-001:single', 'q-002:multi', 'q-003:none'])
    expect(corpus.map((doc) => doc.id).sort()).toEqual(['plans', 'retention', 'support/response-times'])
    expect(readFileSync(join(dir, 'vitest.config.ts'), 'utf8')).toContain('projects: [ragEval()]')
    expect(renderScaffold(result)).toContain('npx vitest run -u')
  })

  it("--corpus: the config reads the user's documents, the golden set has no question, and the drafting path is printed", () => {
    const dir = temp.make('init-corpus-')
    const docs = join(dir, 'handbook')
    mkdirSync(docs)
    const result = scaffold(dir, docs)
    expect(result.written).toEqual(['rag-eval.config.ts', 'evals/golden-set.json', 'evals/rag-system.ts', 'vitest.config.ts'])
    expect(readFileSync(join(dir, 'rag-eval.config.ts'), 'utf8')).toContain("\n  corpus: 'handbook',\n")
    expect(JSON.parse(readFileSync(join(dir, 'evals/golden-set.json'), 'utf8'))).toEqual({
      $schema: '../node_modules/rag-vitest-eval/evals/golden-set.schema.json',
      questions: [],
    })
    const printed = renderScaffold(result)
    expect(printed).toContain(
      '  npx rag-eval golden draft --count 30 --estimate   the cost of drafting questions from handbook/, no call',
    )
    expect(printed).toContain('  npx rag-eval golden verify evals/drafts.jsonl     evals/verified.jsonl')
    expect(printed.indexOf('golden review')).toBeLessThan(printed.indexOf('npx vitest run'))
    // A folder beside the project, quoted as the config's string needs it.
    expect(scaffold(join(dir, 'other'), join(dir, "it's docs")).corpus).toBe("../it's docs")
    expect(readFileSync(join(dir, 'other/rag-eval.config.ts'), 'utf8')).toContain("\n  corpus: '../it\\'s docs',\n")
  })

  it('never overwrites a file, and prints the lines to add to an existing Vitest config', () => {
    const dir = temp.make('init-existing-')
    writeFileSync(join(dir, 'vite.config.ts'), 'export default {}\n')
    writeFileSync(join(dir, 'rag-eval.config.ts'), '// mine\n')
    const result = scaffold(dir)
    expect(result.kept).toEqual(['rag-eval.config.ts'])
    expect(result.existingVitestConfig).toBe('vite.config.ts')
    expect(existsSync(join(dir, 'vitest.config.ts'))).toBe(false)
    expect(readFileSync(join(dir, 'rag-eval.config.ts'), 'utf8')).toBe('// mine\n')
    expect(readFileSync(join(dir, 'vite.config.ts'), 'utf8')).toBe('export default {}\n')
    const printed = renderScaffold(result)
    expect(printed).toContain('kept    rag-eval.config.ts (exists; not overwritten)')
    expect(printed).toContain("vite.config.ts exists and was left alone; add the evaluation's project to it:")
    expect(printed).toContain("import { ragEval } from 'rag-vitest-eval/vitest'")
  })

  it('names a file given where the project folder is expected', () => {
    const dir = temp.make('init-file-')
    writeFileSync(join(dir, 'plain'), '')
    expect(() => scaffold(join(dir, 'plain'))).toThrow(`${join(dir, 'plain')}: expected a folder, found a file`)
  })
})
