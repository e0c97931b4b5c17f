import { describe, expect, it } from 'vitest'
import { costsNothingInFlight, loadEvalProject } from './evaluate-project.ts'

const project = await loadEvalProject({})

describe('where the eval project evaluates (issue 13.2): in a thread of Vitest’s process only when nothing paid for can be in flight', () => {
  it('offline and replay runs: in a thread of Vitest’s process', () => {
    expect(costsNothingInFlight(project, {})).toBe(true)
    expect(costsNothingInFlight(project, { EVAL_MODE: 'replay' })).toBe(true)
    // MOCK=1 turns a live run into a replay of the recording: nothing is sent.
    expect(costsNothingInFlight(project, { EVAL_MODE: 'live', MOCK: '1' })).toBe(true)
  })
  it('live and record runs: in the worker, which drains its model calls into the cache when Vitest is killed', () => {
    expect(costsNothingInFlight(project, { EVAL_MODE: 'live' })).toBe(false)
    expect(costsNothingInFlight(project, { EVAL_MODE: 'record' })).toBe(false)
  })
})
