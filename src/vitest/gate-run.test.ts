import { spawnSync } from 'node:child_process'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { EVAL_PROJECT_RUN, evalProjectEnv } from '../testing/eval-project-run.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { runFailsGate } from '../gate/run-failures.ts'
import { readReport } from '../report/read-report.ts'
import { writeReports } from '../report/write-report.ts'
import { evaluate } from '../run/evaluate.ts'
import { formatInterval, formatPValue } from '../common/format-table.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

/** Runs the eval project as a user would (`vitest run --project eval`), reports into a temp folder. */
function runEvalProject(env: Record<string, string>) {
  const reports = tempDirs.make('gate-run-')
  const result = spawnSync(process.execPath, EVAL_PROJECT_RUN, {
    encoding: 'utf8',
    env: evalProjectEnv({ EVAL_REPORTS_DIR: reports, ...env }),
  })
  return { code: result.status, out: result.stdout + result.stderr, reports }
}

describe('the gate against the committed baseline', () => {
  it('a shrunk context budget regresses recall, so GATE=1 fails the run; on GitHub Actions the job summary says the same as latest.json', async () => {
    // Measured and written in this process as the eval project's host does (evaluate(), then writeReports with the
    // run's environment); that GATE=1 fails a Vitest run on regressions is unmeasured-runs.test.ts's, and the terminal
    // summary under Vitest the run without GATE's below.
    const reports = tempDirs.make('gate-run-')
    const stepSummary = join(tempDirs.make('gate-run-'), 'step-summary.md')
    // A job summary file holds the earlier steps' summaries: the run appends to it.
    writeFileSync(stepSummary, 'an earlier step\n')
    const github = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary, GITHUB_SERVER_URL: 'https://github.example' }
    const env = { EVAL_CONTEXT_BUDGET: '120', ...github, GITHUB_REPOSITORY: 'team/rag', GITHUB_RUN_ID: '4242' }
    const report = await evaluate({ ...(await loadProjectConfig()), reports }, { tier: 'full', env })
    writeReports(report, reports, env)
    expect(runFailsGate(report)).toBe(true)
    const gate = readReport(join(reports, 'latest.json')).gate!
    const summary = readFileSync(stepSummary, 'utf8')
    expect(summary.startsWith('an earlier step\n<!-- rag-vitest-eval job summary -->\n')).toBe(true)
    expect(summary.slice('an earlier step\n'.length)).toBe(readFileSync(join(reports, 'summary.md'), 'utf8'))
    const lines = summary.split('\n')
    expect(lines[4]).toBe(`**gate: FAILED, ${gate.regressions.length} regression(s) against baseline/ (tolerance 0.01)**`)
    const recall = gate.metrics.find((m) => m.name === 'recall')!
    expect(recall.status).toBe('regressed')
    expect(summary).toContain(`| ${formatInterval(recall.deltaInterval, 3)} | ${formatPValue(recall.pValue)} | regressed |`)
    // Every question the gate lost, each with where its answer document was lost (the budget cut it).
    const lost = gate.questions.filter((q) => q.status === 'regressed').map((q) => q.id)
    const listed = lines.slice(
      lines.indexOf('### Questions lost since the baseline') + 2,
      lines.indexOf('### Questions lost since the baseline') + 2 + Math.min(lost.length, 10),
    )
    expect(listed.map((line) => /^- ([\w-]+): lost at /.exec(line)?.[1])).toEqual(lost.slice(0, 10))
    expect(summary).toContain('offline: no model calls')
    expect(summary).toContain('(https://github.example/team/rag/actions/runs/4242#artifacts)')
  })
})

describe('the eval project through Vitest', () => {
  it('reports that cannot be written fail the run, naming the file, though the evaluation reached the cases first', () => {
    // The reports folder is a file: the evaluation is measured and handed to the cases, then writing fails.
    const blocked = join(tempDirs.make('gate-run-'), 'not-a-folder')
    writeFileSync(blocked, '')
    const { code, out } = runEvalProject({ EVAL_REPORTS_DIR: blocked })
    expect(code).toBe(1)
    expect(out).toMatch(/FAIL .*reports > the run’s reports are written/)
    expect(out).toContain(`Error: the reports could not be written: EEXIST: file already exists, mkdir '${blocked}'`)
  })

  it('a run whose files leave out the eval project’s cases evaluates nothing (no host is started)', () => {
    const reports = tempDirs.make('gate-run-')
    const result = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'eval',
        '--project',
        'shared-modules',
        'src/load/front-matter.test.ts',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, CI: '', GATE: '', FORCE_COLOR: '0', NO_COLOR: '1', EVAL_REPORTS_DIR: reports },
      },
    )
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/Test Files +1 passed \(1\)/)
    expect(readdirSync(reports)).toEqual([])
  })

  it('without GATE the same regression is reported, the run ending with the regressions table naming recall, and exits 0', () => {
    const { code, out } = runEvalProject({ EVAL_CONTEXT_BUDGET: '120' })
    expect(code).toBe(0)
    const tail = out.slice(out.lastIndexOf('gate: FAILED'))
    expect(tail).toMatch(
      /^gate: FAILED, \d+ regression\(s\) against baseline\/ \(tolerance 0\.01\)\n\nregression +baseline +current +delta\nrecall +0\.\d{4} +0\.\d{4} +-0\.\d{4}\n/,
    )
    expect(out).toContain('budgetTokens: baseline 600, this run 120')
  })
})
