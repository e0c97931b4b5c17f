import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestProject, TestSpecification } from 'vitest/node'
import type { Report } from '../contract/report-schema.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import setup from './global-setup.ts'
import { readReportsWritten, readSharedRun, runFiles, type RunFiles, type SharedRun } from './shared-run.ts'

const temp = useTempDirs()

function measured(questions: number): SharedRun<null> & { ok: true } {
  return {
    ok: true,
    report: null,
    questions,
    terminalSummary: 'summary',
    reportsDir: '/r',
    projectRoot: '/p',
    baselineRoot: '/b',
    gate: false,
    strict: false,
    baselineUpdated: false,
    comparison: null,
  }
}

// The files carry what the report holds; they do not look inside it.
const report = (questions: number) =>
  ({ schemaVersion: 1, questions: Array.from({ length: questions }, (_, i) => ({ id: `q-${i}` })) }) as unknown as Report

describe('the run reaches the cases as files while the global setup goes on', () => {
  it('a case file that asks before the run is measured receives it once its file is written, with the report', async () => {
    const files = runFiles(temp.make('run-files-'), '1')
    const early = readSharedRun(files, true)
    writeFileAtomic(files.report, JSON.stringify(report(3), null, 2))
    // The report alone is not the run: the run's file, written last, is.
    await new Promise((resolve) => setTimeout(resolve, 20))
    writeFileAtomic(files.run, JSON.stringify(measured(3)))
    expect(await early).toEqual({ ...measured(3), report: report(3) })
    expect(await readSharedRun(files, true)).toEqual({ ...measured(3), report: report(3) })
  })

  it('the reporter reads the run without its report (the report file is not opened)', async () => {
    const files = runFiles(temp.make('run-files-'), '1')
    writeFileAtomic(files.run, JSON.stringify(measured(2)))
    expect(existsSync(files.report)).toBe(false)
    expect(await readSharedRun(files, false)).toEqual(measured(2))
  })

  it('a failed run is read without a report', async () => {
    const files = runFiles(temp.make('run-files-'), '1')
    writeFileAtomic(files.run, JSON.stringify({ ok: false, error: 'corpus/x.md: not UTF-8' }))
    expect(await readSharedRun(files, true)).toEqual({ ok: false, error: 'corpus/x.md: not UTF-8' })
  })

  it('whether the reports were written is a file of its own, read once it is written (the cases run meanwhile)', async () => {
    const files = runFiles(temp.make('run-files-'), '1')
    writeFileAtomic(files.run, JSON.stringify(measured(1)))
    const written = readReportsWritten(files)
    writeFileAtomic(files.reportsWritten, JSON.stringify({ error: 'reports/latest.json: ENOSPC' }))
    expect(await written).toBe('reports/latest.json: ENOSPC')
  })

  it('a folder that is not there is an error naming it', async () => {
    const folder = temp.make('run-files-')
    rmSync(folder, { recursive: true })
    await expect(readSharedRun(runFiles(folder, '1'), true)).rejects.toThrow(
      `the evaluation's folder ${folder} could not be read`,
    )
  })
})

/** The parts of Vitest's project the global setup uses: no shard, no -u, rerun listeners kept. */
function stubProject(inline: Record<string, unknown>) {
  const provided: { evaluation?: RunFiles } = {}
  const reruns: ((specifications: TestSpecification[]) => unknown)[] = []
  const project = {
    name: 'eval',
    vitest: { config: { watch: true } },
    config: { provide: { ragEvalOptions: { inline } }, snapshotOptions: { updateSnapshot: 'new' } },
    provide: (key: 'evaluation', value: RunFiles) => (provided[key] = value),
    onTestsRerun: (listener: (specifications: TestSpecification[]) => unknown) => reruns.push(listener),
  }
  const rerun = () => {
    for (const listener of reruns) void listener([{ project } as unknown as TestSpecification])
  }
  return { project: project as unknown as TestProject, provided, rerun }
}

describe('the global setup hands each measurement over in a folder of its own', () => {
  it('provides the files of each measurement, a rerun replacing the last, and removes the folder at teardown', async () => {
    const reports = temp.make('setup-reports-')
    const { project, provided, rerun } = stubProject({
      corpus: 'fixtures/corpora/tiny',
      goldenSet: 'fixtures/golden/valid.json',
      reports,
    })
    const teardown = setup(project)
    const first = provided.evaluation!
    const run = await readSharedRun(first, true)
    const golden = JSON.parse(readFileSync('fixtures/golden/valid.json', 'utf8')) as { questions: { id: string }[] }
    expect(run.ok && run.report.questions.map((q) => q.id)).toEqual(golden.questions.map((q) => q.id))
    // The cases' copy of the report is latest.json's bytes.
    expect(await readReportsWritten(first)).toBeNull()
    expect(readFileSync(first.report, 'utf8')).toBe(readFileSync(join(reports, 'latest.json'), 'utf8'))
    rerun()
    const second = provided.evaluation!
    expect(second.run).not.toBe(first.run)
    expect(existsSync(first.run)).toBe(false)
    expect((await readSharedRun(second, false)).ok).toBe(true)
    await teardown()
    expect(existsSync(dirname(second.run))).toBe(false)
  })
})
