import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadAttackSet } from '../load/attack-set.ts'
import { loadCorpus } from '../load/corpus.ts'
import { tempDir } from '../model/testing/eval-child.ts'
import { ragEvalChild } from '../testing/rag-eval-child.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

/** Every file under a folder, by name, with its text. */
const filesOf = (dir: string) => Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]))

describe('rag-eval attacks', () => {
  it('writes the pages into the corpus and the attack set the config names, the same bytes from the bin', async () => {
    const dir = tempDir('attacks-cli-')
    cpSync('fixtures/corpora/tiny', join(dir, 'corpus'), { recursive: true })
    writeFileSync(join(dir, 'rag-eval.config.mjs'), "export default { corpus: 'corpus', attackSet: 'evals/attacks.json' }\n")
    const inProcess = await ragEvalInProcess(['attacks'], {
      cwd: dir,
      env: { RAG_EVAL_CONFIG: join(dir, 'rag-eval.config.mjs') },
    })
    expect(inProcess.stderr).toBe('')
    expect(inProcess.code).toBe(0)
    expect(inProcess.stdout.split('\n')[0]).toBe(
      'wrote 7 attack pages to corpus/attacks/ and their questions to evals/attacks.json',
    )
    // The corpus loads with them, and every attack question names one of its pages.
    const ids = new Set(loadCorpus(join(dir, 'corpus')).map((doc) => doc.id))
    const set = loadAttackSet(join(dir, 'evals', 'attacks.json'))
    expect(set.questions.map((q) => ids.has(q.answerDocIds[0]!))).toEqual(Array(7).fill(true))

    const other = tempDir('attacks-bin-')
    const bin = await ragEvalChild(['attacks', '--out', join(other, 'pages'), '--set', join(other, 'set.json')], {
      ...process.env,
      RAG_EVAL_CONFIG: join(dir, 'rag-eval.config.mjs'),
    })
    expect(bin.stderr).toBe('')
    expect(bin.code).toBe(0)
    expect(filesOf(join(other, 'pages'))).toEqual(filesOf(join(dir, 'corpus', 'attacks')))
    expect(readFileSync(join(other, 'set.json'), 'utf8')).toBe(readFileSync(join(dir, 'evals', 'attacks.json'), 'utf8'))
  })

  it('asks for --out when the system owns its documents (corpus: null)', async () => {
    const dir = tempDir('attacks-null-')
    writeFileSync(join(dir, 'rag-eval.config.mjs'), 'export default { corpus: null }\n')
    const result = await ragEvalInProcess(['attacks'], { cwd: dir, env: { RAG_EVAL_CONFIG: join(dir, 'rag-eval.config.mjs') } })
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(
      'attacks: rag-eval attacks: the config has no corpus (corpus: null): say where the pages go with --out <folder>',
    )
  })
})
