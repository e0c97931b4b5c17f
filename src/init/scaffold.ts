import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { InputError } from '../contract/input-error.ts'
import {
  CONFIG_TEMPLATE,
  CORPUS_TEMPLATES,
  GOLDEN_SET_TEMPLATE,
  SYSTEM_TEMPLATE,
  VITEST_CONFIG_LINES,
  VITEST_CONFIG_TEMPLATE,
  type ScaffoldFile,
} from './templates.ts'

/** Vitest and Vite config names: when one exists, init prints what to add instead of writing its own. */
const VITEST_CONFIG_NAMES = [
  'vitest.config.ts',
  'vitest.config.mts',
  'vitest.config.js',
  'vitest.config.mjs',
  'vite.config.ts',
  'vite.config.mts',
  'vite.config.js',
  'vite.config.mjs',
]

export interface ScaffoldResult {
  written: string[]
  /** Files that existed and were left alone. */
  kept: string[]
  /** The Vitest config found (then `lines` says what to add to it); null when init wrote one. */
  existingVitestConfig: string | null
}

/** The files init writes into `dir`, in order. */
const SCAFFOLD_FILES: ScaffoldFile[] = [
  { path: 'rag-eval.config.ts', content: CONFIG_TEMPLATE },
  { path: 'evals/golden-set.json', content: GOLDEN_SET_TEMPLATE },
  { path: 'evals/rag-system.ts', content: SYSTEM_TEMPLATE },
  ...CORPUS_TEMPLATES,
]

/** Scaffolds a project in `dir`: never overwrites a file; an existing Vitest config gets the lines to add, printed. */
export function scaffold(dir: string): ScaffoldResult {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError(`${dir}: expected a folder, found a file`)
  const result: ScaffoldResult = {
    written: [],
    kept: [],
    existingVitestConfig: VITEST_CONFIG_NAMES.find((name) => existsSync(join(dir, name))) ?? null,
  }
  const files = [
    ...SCAFFOLD_FILES,
    ...(result.existingVitestConfig === null ? [{ path: 'vitest.config.ts', content: VITEST_CONFIG_TEMPLATE }] : []),
  ]
  for (const file of files) {
    const target = join(dir, file.path)
    if (existsSync(target)) {
      result.kept.push(file.path)
      continue
    }
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, file.content, { flag: 'wx' })
    result.written.push(file.path)
  }
  return result
}

/** What init prints: what it wrote, what it left alone, and the next commands. */
export function renderScaffold(result: ScaffoldResult): string {
  const lines = [
    ...result.written.map((path) => `  created ${path}`),
    ...result.kept.map((path) => `  kept    ${path} (exists; not overwritten)`),
  ]
  if (result.existingVitestConfig !== null) {
    lines.push(
      '',
      `${result.existingVitestConfig} exists and was left alone; add the evaluation's project to it:`,
      '',
      `  ${VITEST_CONFIG_LINES}`,
    )
  }
  lines.push(
    '',
    'Next:',
    '  npx vitest run                 run the evaluation (one case per golden question, per gated metric)',
    '  npx vitest run -u              accept this run as the baseline (evals/baseline/); commit it',
    '  GATE=1 npx vitest run          fail when a metric or a question regresses against the baseline',
    '  npx rag-eval retrieval         the fast retrieval-only tier, without Vitest',
    '',
    'Then point `system` in rag-eval.config.ts at your pipeline and write your golden questions (evals/golden-set.json).',
  )
  return lines.join('\n')
}
