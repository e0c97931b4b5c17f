import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { ragEvalChild } from '../../testing/rag-eval-child.ts'
import { ragEvalInProcess } from '../../cli/testing/rag-eval-in-process.ts'
import { loadProjectConfig } from '../../config/load-project-config.ts'
import type { ProjectConfig } from '../../config/project-config.ts'
import { ReportSchema, type Report } from '../../contract/report-schema.ts'

/** Test helpers for the model modes: temp folders, the eval CLI, reports, file scans. */

/**
 * A temp folder removed when the test that made it finishes: a hook of that test, not of the first file importing
 * this module, so it holds when test files share this module (isolate: false).
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** The repository's project (rag-eval.config.ts), read once. */
const repository = await loadProjectConfig()

/** The three-question set over the three-document corpus, with its own cache and recordings folders. */
export function tinyProject(): ProjectConfig {
  return {
    ...repository,
    corpus: { ...repository.corpus!, dir: 'fixtures/corpora/tiny' },
    goldenSet: 'fixtures/golden/valid.json',
    cacheDir: tempDir('model-cache-'),
    recordingsDir: tempDir('recordings-'),
  }
}

/**
 * `pnpm eval:cli` in-process through the bin's dispatcher, or the bin in a child process (what only a process
 * shows: the SDK's own logging); asynchronous, so a server in this process can answer.
 */
export function runEvalCli(
  args: string[],
  env: Record<string, string>,
  via: 'in-process' | 'bin' = 'in-process',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const runEnv = { ...process.env, GATE: '', MOCK: '', ...env }
  return via === 'bin' ? ragEvalChild(['eval', ...args], runEnv) : ragEvalInProcess(['eval', ...args], { env: runEnv })
}

export const readReport = (dir: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')))

/** A report without what may differ between two runs of the same inputs in different modes. */
export const comparable = (report: Report) => ({
  ...report,
  run: null,
  config: { ...report.config, mode: null },
  warnings: null,
  calibration: null,
})

/** Every file under `dir`, recursively (a file another process removes meanwhile is left out). */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    try {
      return statSync(path).isDirectory() ? filesUnder(path) : [path]
    } catch {
      return []
    }
  })
}

/** A file's text, or '' when it is gone (a report being replaced by an atomic rename). */
export function textOf(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
