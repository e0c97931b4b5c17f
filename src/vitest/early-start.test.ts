import { describe, expect, it } from 'vitest'
import { plainlyEvaluates } from './early-start.ts'

const CLI = ['/usr/bin/node', '/repo/node_modules/vitest/vitest.mjs']
const guess = (args: string[], env: NodeJS.ProcessEnv = {}) => plainlyEvaluates([...CLI, ...args], env, 'eval')

describe('plainlyEvaluates: a plain `vitest run` of the eval project, read from the command line', () => {
  it('is true for `vitest run`, `--run` and CI, with or without the eval project named', () => {
    expect(guess(['run'])).toBe(true)
    expect(guess(['run', '--project', 'eval'])).toBe(true)
    expect(guess(['run', '--project=eval', '--shard=1/3', '--reporter=blob'])).toBe(true)
    expect(guess(['--run', '--project', 'unit', '--project', 'eval'])).toBe(true)
    expect(guess([], { CI: 'true' })).toBe(true)
    expect(guess(['src/vitest/cases/'], { CI: '1' })).toBe(true)
    expect(guess(['run', '--project', 'e*'])).toBe(true)
  })

  it('is false when the run may be watch mode, merges reports, or leaves the eval project out', () => {
    expect(guess([])).toBe(false)
    expect(guess(['--ui'])).toBe(false)
    expect(guess(['run', '--watch'])).toBe(false)
    expect(guess(['--merge-reports'], { CI: '1' })).toBe(false)
    expect(guess(['run', '--merge-reports=.vitest-reports'])).toBe(false)
    expect(guess(['run', '--project', 'unit'])).toBe(false)
    expect(guess(['run', '--project=package'])).toBe(false)
    expect(plainlyEvaluates([...CLI, 'run', '--project', 'eval'], {}, 'rag')).toBe(false)
  })

  it("is false for other commands and for processes that are not Vitest's command line", () => {
    expect(guess(['watch'], { CI: '1' })).toBe(false)
    expect(guess(['bench', '--run'])).toBe(false)
    expect(guess(['list'], { CI: '1' })).toBe(false)
    expect(plainlyEvaluates(['/usr/bin/node', '/repo/node_modules/vitest/dist/workers/forks.js', 'run'], {}, 'eval')).toBe(false)
    expect(plainlyEvaluates(['/usr/bin/node'], { CI: '1' }, 'eval')).toBe(false)
  })
})
