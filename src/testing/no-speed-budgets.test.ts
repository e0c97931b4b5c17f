import { readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { TEST_HANG_LIMIT_MS } from './hang-limit.ts'

/** Every test file of the repository (tracked or new), by path. */
function testFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.test.ts'], {
    encoding: 'utf8',
  })
  return listed.split('\n').filter((file) => file !== '' && file !== 'src/testing/no-speed-budgets.test.ts')
}

/** A test's or hook's own time limit: `{ timeout: N }` options, or a number as the last argument of it/test/describe/before/after. */
const LIMITS = [/\{\s*timeout:\s*([\d_]+)\s*\}/g, /^\s*\}\s*,\s*([\d_]+)\s*\)\s*$/gm]

/** The limits below the hang limit in a file's text, as `line: limit`. */
export function speedBudgets(text: string): string[] {
  const found: string[] = []
  for (const pattern of LIMITS)
    for (const match of text.matchAll(pattern)) {
      const ms = Number(match[1]!.replaceAll('_', ''))
      if (ms < TEST_HANG_LIMIT_MS) found.push(`${text.slice(0, match.index).split('\n').length}: ${match[1]}`)
    }
  return found
}

describe('no test carries a speed budget (a limit under the hang limit fails on a busy machine)', () => {
  it('finds a budget in an option object and in a trailing argument, and leaves the hang limit alone', () => {
    const text =
      "it('a', { timeout: 60_000 }, () => {})\nit('b', async () => {\n  await x()\n}, 30000)\nit('c', () => {\n}, 600_000)\n"
    expect(speedBudgets(text)).toEqual(['1: 60_000', '4: 30000'])
  })

  it('no test file sets a test or hook limit under the project’s hang limit', () => {
    const budgets = testFiles().flatMap((file) => speedBudgets(readFileSync(file, 'utf8')).map((at) => `${file}:${at}`))
    expect(budgets).toEqual([])
  })
})
