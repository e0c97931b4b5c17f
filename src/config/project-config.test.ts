import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { evaluate } from '../run/evaluate.ts'
import { loadProjectConfig } from './load-project-config.ts'
import { resolveProjectConfig, runKnobs } from './project-config.ts'

const temp = useTempDirs()

/** A config file in a temp project; `defineConfig` is the identity, so a plain object export is the same config. */
function configFile(body: string, name = 'rag-eval.config.ts'): { dir: string; file: string } {
  const dir = temp.make('project-config-')
  const file = join(dir, name)
  writeFileSync(file, body)
  return { dir, file }
}

describe('rag-eval.config.ts', () => {
  it('resolves paths against the config file and keeps the knobs for each run', async () => {
    const { dir } = configFile(
      `export default { corpus: { dir: 'docs', include: ['**/*.md'] }, goldenSet: 'gold.json', budgetTokens: 450 }\n`,
    )
    const project = await loadProjectConfig({ cwd: dir, env: {} })
    expect(project).toMatchObject({
      root: dir,
      goldenSet: join(dir, 'gold.json'),
      baseline: join(dir, 'baseline'),
      system: 'builtin',
    })
    expect(project.corpus).toEqual({
      dir: join(dir, 'docs'),
      include: ['**/*.md'],
      exclude: ['**/node_modules/**', '**/.*/**', '**/.*'],
    })
    expect(runKnobs(project, {}).budgetTokens).toBe(450)
    // The environment still wins, per run.
    expect(runKnobs(project, { EVAL_CONTEXT_BUDGET: '300' }).budgetTokens).toBe(300)
  })

  it('points a bad field at its line and column in the file', async () => {
    const { dir, file } = configFile(`// a comment\nexport default {\n  corpus: 'docs',\n  budgetTokens: -3,\n}\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `${file}:4:3 field "budgetTokens": Too small: expected number to be >0 (got -3)`,
    )
  })

  it('names an unknown field, where it is, and what is expected', async () => {
    const { dir, file } = configFile(`export default {\n  corpus: 'docs',\n    budget: 600,\n}\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `${file}:3:5 field "budget": unknown config field(s) budget; expected only corpus, goldenSet,`,
    )
  })

  it('names a nested field of the system spec', async () => {
    const { dir, file } = configFile(`export default {\n  system: { http: { url: 'not a url' } },\n}\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(`${file}:2:3 field "system"`)
  })

  it('says how to get a config when there is none, and names a --config that is a folder', async () => {
    const dir = temp.make('no-config-')
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `no rag-eval.config.ts in ${dir}; create one with \`rag-eval init\`, or name it with --config <file> or RAG_EVAL_CONFIG`,
    )
    await expect(loadProjectConfig({ cwd: dir, env: {}, configFile: '.' })).rejects.toThrow(
      '--config .: expected a config file, found a folder',
    )
    await expect(loadProjectConfig({ cwd: dir, env: { RAG_EVAL_CONFIG: 'missing.ts' } })).rejects.toThrow(
      'RAG_EVAL_CONFIG missing.ts: config file not found',
    )
  })

  it('a config that fails to load is named with its first error line and where it was thrown', async () => {
    const { dir, file } = configFile(`throw new Error('boom')\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `${file}: the config file failed to load: boom (at ${file}:1)`,
    )
  })

  it('a syntax error in the config, or in a module it imports, is named by file:line:column', async () => {
    const { dir, file } = configFile(`export default {\n  corpus: 'docs',,\n}\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `${file}: the config file failed to load: ${file}:2:18: syntax error: Unexpected token`,
    )
    const helper = join(dir, 'paths.ts')
    writeFileSync(helper, `export const corpus = 'docs'\nexport const golden = = 'gold.json'\n`)
    writeFileSync(file, `import { corpus } from './paths.ts'\nexport default { corpus }\n`)
    await expect(loadProjectConfig({ cwd: dir, env: {} })).rejects.toThrow(
      `${file}: the config file failed to load: ${helper}:2:23: syntax error: Unexpected token`,
    )
  })

  it('reads a JavaScript config (loaded by Node itself): ESM .mjs, CommonJS .js, and ESM syntax in a CommonJS package', async () => {
    const mjs = configFile(`export default { budgetTokens: 451 }\n`, 'rag-eval.config.mjs')
    expect(runKnobs(await loadProjectConfig({ cwd: mjs.dir, env: {} }), {}).budgetTokens).toBe(451)
    const cjs = configFile(`module.exports = { budgetTokens: 452 }\n`, 'rag-eval.config.js')
    expect(runKnobs(await loadProjectConfig({ cwd: cjs.dir, env: {} }), {}).budgetTokens).toBe(452)
    const esmInCjs = configFile(`export default { budgetTokens: 453 }\n`, 'rag-eval.config.js')
    writeFileSync(join(esmInCjs.dir, 'package.json'), '{ "type": "commonjs" }\n')
    expect(runKnobs(await loadProjectConfig({ cwd: esmInCjs.dir, env: {} }), {}).budgetTokens).toBe(453)
    const failing = configFile(`throw new Error('boom in js')\n`, 'rag-eval.config.mjs')
    await expect(loadProjectConfig({ cwd: failing.dir, env: {} })).rejects.toThrow(
      `${failing.file}: the config file failed to load: boom in js (at ${failing.file}:1:7)`,
    )
  })

  it('inline options without a file are the whole config, rooted at the folder', () => {
    const project = resolveProjectConfig(
      { corpus: null, system: { http: { url: 'http://127.0.0.1:9/rag' } } },
      { root: '/p', source: 'inline', env: {} },
    )
    expect(project).toMatchObject({
      corpus: null,
      goldenSet: '/p/evals/golden-set.json',
      system: { http: { url: 'http://127.0.0.1:9/rag' } },
    })
  })
})

describe('a budget no corpus can fill', () => {
  it('is run, with a warning that says what recall then measures', async () => {
    const project = await loadProjectConfig({
      overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' },
    })
    const report = await evaluate(project, { tier: 'retrieval', env: { EVAL_CONTEXT_BUDGET: '1000000000' }, baselineRoot: null })
    // The tiny corpus's three bodies hold 54 + 28 + 26 = 108 tokens (o200k_base, counted apart with gpt-tokenizer).
    expect(report.warnings).toContain(
      'budgetTokens 1000000000 exceeds the whole corpus (108 tokens): every ranked chunk fits, so recall does not measure the context budget',
    )
  })
})
