import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { failMergedQuestionCases, type MergedTask } from './merged-view.ts'

/** The parts of a merged report the view reads: three questions, q-2 regressed, q-3 errored. */
const report = {
  questions: [
    { id: 'q-1', type: 'single', question: 'Held?', systemError: null },
    { id: 'q-2', type: 'single', question: 'Lost?', systemError: null },
    { id: 'q-3', type: 'multi', question: 'Errored?', systemError: 'HTTP 422: ranked: missing' },
  ],
  gate: {
    policy: 'tolerance',
    baseline: 'baseline',
    questions: [
      { id: 'q-1', status: 'held' },
      { id: 'q-2', status: 'regressed' },
      { id: 'q-3', status: 'system-error' },
    ],
  },
} as unknown as Report

/** A shard's file as its blob holds it: q-1 and q-2 passed (shards never gate), q-3 failed on its system error. */
function shardFile(): MergedTask & { tasks: MergedTask[] } {
  const test = (name: string, state: string, errors: unknown[] = []): MergedTask => ({
    type: 'test',
    name,
    result: { state, errors },
  })
  return {
    type: 'suite',
    name: 'questions-shard-1-of-2.eval.ts',
    result: { state: 'pass' },
    tasks: [
      {
        type: 'suite',
        name: 'single questions',
        result: { state: 'pass' },
        tasks: [test('q-1 [single] Held?', 'pass'), test('q-2 [single] Lost?', 'pass')],
      },
      {
        type: 'suite',
        name: 'multi questions',
        result: { state: 'fail' },
        tasks: [test('q-3 [multi] Errored?', 'fail', [{ message: 'the shard’s own error' }])],
      },
    ],
  }
}

describe('failMergedQuestionCases', () => {
  it('under GATE=1 fails the regressed question’s case, its suite and its file; a system error keeps its own error', () => {
    const file = shardFile()
    expect(failMergedQuestionCases([file], report, true)).toEqual([])
    const [single, multi] = file.tasks
    expect(file.result?.state).toBe('fail')
    expect(single!.result?.state).toBe('fail')
    expect(single!.tasks![0]!.result).toEqual({ state: 'pass', errors: [] })
    const message = "q-2: regression: the baseline passed this question (the merged run's gate against baseline/, GATE=1)"
    expect(single!.tasks![1]!.result).toEqual({ state: 'fail', errors: [{ name: 'Error', message, stack: `Error: ${message}` }] })
    expect(multi!.tasks![0]!.result).toEqual({ state: 'fail', errors: [{ message: 'the shard’s own error' }] })
  })

  it('without GATE=1 a regression is not failed (as in one run); a failing question no blob holds is named', () => {
    const file = shardFile()
    file.tasks.pop()
    expect(failMergedQuestionCases([file], report, false)).toEqual(['q-3'])
    expect(file.result?.state).toBe('pass')
    expect(file.tasks[0]!.tasks![1]!.result).toEqual({ state: 'pass', errors: [] })
  })
})
