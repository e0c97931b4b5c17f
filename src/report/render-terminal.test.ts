import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { renderTerminalSummary } from './render-terminal.ts'

const temp = useTempDirs()

describe('the terminal summary', () => {
  it('counts and names the corpus files include/exclude left out', async () => {
    const dir = temp.make('excluded-')
    cpSync('fixtures/corpora/tiny', dir, { recursive: true })
    writeFileSync(join(dir, 'notes.json'), '{}')
    writeFileSync(join(dir, 'draft.md'), '# Draft\n\nNot ready.\n')
    const project = await loadProjectConfig({
      overrides: { corpus: { dir, exclude: ['draft.md'] }, goldenSet: 'fixtures/golden/valid.json' },
    })
    const report = await evaluate(project, { tier: 'retrieval', env: {}, baselineRoot: null })
    expect(report.corpus.documents).toBe(3)
    expect(report.corpus.excluded.map((e) => e.file.split('/').pop())).toEqual(['draft.md', 'notes.json'])
    expect(renderTerminalSummary(report)).toMatch(
      /\ncorpus: 2 file\(s\) left out by include\/exclude: \S*draft\.md \(excluded by draft\.md\), \S*notes\.json \(not matched by include [^)]+\)\n/,
    )
  })
})
