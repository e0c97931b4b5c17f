import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { useTempDirs } from '../support/testing/use-temp-dirs.ts'
import { readShared, shareEvaluation, type SharedEvaluation } from './shared-evaluation.ts'

const temp = useTempDirs()

function evaluation(reportsDir: string, questions: number): SharedEvaluation {
  // The cases read what the report holds; the handoff does not look inside it.
  const report = { schemaVersion: 1, questions: Array.from({ length: questions }, (_, i) => ({ id: `q-${i}` })) } as unknown as Report
  return { ok: true, report, reportsDir, projectRoot: reportsDir, baselineRoot: reportsDir, gate: false, strict: false, baselineUpdated: false }
}

describe('the shared evaluation travels to the cases as a file of this run, checked by its digest (issue 13.3)', () => {
  it('the main process reads back the object it shared; another process reads the file', () => {
    const dir = temp.make('shared-evaluation-')
    const first = evaluation(dir, 3)
    const handle = shareEvaluation(first)
    expect(handle.ok && handle.file.startsWith(`${dir}/.vitest-evaluation.${process.pid}.`)).toBe(true)
    expect(readShared(handle)).toBe(first)
    // A second share stands in for a worker, which has never seen the first object.
    shareEvaluation(evaluation(dir, 1))
    expect(readShared(handle)).toEqual(first)
    expect(readShared(handle)).not.toBe(first)
  })

  it('a file that changed since it was shared is a failed evaluation, naming the file', () => {
    const dir = temp.make('shared-evaluation-')
    const handle = shareEvaluation(evaluation(dir, 2))
    shareEvaluation(evaluation(dir, 5))
    if (!handle.ok) throw new Error('expected a shared run')
    writeFileSync(handle.file, JSON.stringify(evaluation(dir, 2)).replace('q-1', 'q-9'))
    expect(readShared(handle)).toEqual({ ok: false, error: `${handle.file} is not the evaluation this run shared (it changed since): run again` })
  })

  it('a failed evaluation is provided as it is', () => {
    const failed = { ok: false as const, error: 'the evaluation failed: corpus/x.md: not UTF-8' }
    expect(shareEvaluation(failed)).toBe(failed)
    expect(readShared(failed)).toBe(failed)
  })
})

describe('a shared file left by a killed Vitest run', () => {
  it('is removed by the next run when its process is gone; a live process’s file stays', () => {
    const dir = temp.make('shared-evaluation-')
    // A pid that existed and is gone: a child that has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout
    const orphan = join(dir, `.vitest-evaluation.${gone}.0a1b2c3d.json`)
    const live = join(dir, `.vitest-evaluation.${process.ppid}.0a1b2c3d.json`)
    const other = join(dir, 'latest.json')
    for (const file of [orphan, live, other]) writeFileSync(file, '{}')
    shareEvaluation(evaluation(dir, 1))
    expect([orphan, live, other].map((file) => existsSync(file))).toEqual([false, true, true])
  })
})
