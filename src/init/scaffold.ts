import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { InputError } from '../contract/input-error.ts'
import {
  configTemplate,
  CORPUS_TEMPLATES,
  EMPTY_GOLDEN_SET_TEMPLATE,
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
  /** The user's documents (--corpus), relative to the project: the golden set starts empty, to be drafted; null: the example. */
  corpus: string | null
}

/** The files init writes into `dir`, in order: over the user's documents at `corpus`, or over an example corpus. */
function scaffoldFiles(corpus: string | null): ScaffoldFile[] {
  return [
    { path: 'rag-eval.config.ts', content: configTemplate(corpus ?? 'evals/corpus') },
    { path: 'evals/golden-set.json', content: corpus === null ? GOLDEN_SET_TEMPLATE : EMPTY_GOLDEN_SET_TEMPLATE },
    { path: 'evals/rag-system.ts', content: SYSTEM_TEMPLATE },
    ...(corpus === null ? CORPUS_TEMPLATES : []),
  ]
}

/**
 * Scaffolds a project in `dir` (over the documents in `corpus`, a folder, when given): never overwrites a file; an
 * existing Vitest config gets the lines to add, printed.
 */
export function scaffold(dir: string, corpus?: string): ScaffoldResult {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InputError(`${dir}: expected a folder, found a file`)
  const result: ScaffoldResult = {
    written: [],
    kept: [],
    existingVitestConfig: VITEST_CONFIG_NAMES.find((name) => existsSync(join(dir, name))) ?? null,
    corpus: corpus === undefined ? null : relative(resolve(dir), resolve(corpus)).split(sep).join('/') || '.',
  }
  const files = [
    ...scaffoldFiles(result.corpus),
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
  // Over the user's documents the golden set is empty: drafting it comes first.
  const drafting = [
    `  npx rag-eval golden draft --count 30 --estimate   the cost of drafting questions from ${result.corpus}/, no call`,
    '  npx rag-eval golden draft --count 30              evals/drafts.jsonl (ANTHROPIC_API_KEY set)',
    '  npx rag-eval golden verify evals/drafts.jsonl     evals/verified.jsonl: each draft kept, rejected or undecided',
    '  npx rag-eval golden review                        accept the kept ones into evals/golden-set.json',
  ]
  lines.push(
    '',
    'Next:',
    ...(result.corpus === null ? [] : drafting),
    '  npx vitest run                 run the evaluation (one case per golden question, per gated metric)',
    '  npx vitest run -u              accept this run as the baseline (evals/baseline/); commit it',
    '  GATE=1 npx vitest run          fail when a metric or a question regresses against the baseline',
    '  npx rag-eval retrieval         the fast retrieval-only tier, without Vitest',
    '',
    result.corpus === null
      ? 'Then point `system` in rag-eval.config.ts at your pipeline and write your golden questions (evals/golden-set.json).'
      : 'The golden set has no question yet (docs/golden-set.md, "Drafting a first golden set"; `npx rag-eval golden add` adds one by hand). Point `system` in rag-eval.config.ts at your pipeline.',
  )
  return lines.join('\n')
}
