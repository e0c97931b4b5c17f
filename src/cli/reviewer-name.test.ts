import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { resolveReviewer } from './reviewer-name.ts'

const temp = useTempDirs()

/** An environment whose only git config is `gitConfig` (or none), run in a folder outside any repository. */
function setting(userName: string | null, user: string | undefined) {
  const dir = temp.make('reviewer-')
  const gitConfig = join(dir, 'gitconfig')
  writeFileSync(gitConfig, userName === null ? '' : `[user]\n\tname = ${userName}\n`)
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_CONFIG_GLOBAL: gitConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: dir,
  }
  if (user !== undefined) env.USER = user
  return { env, dir }
}

describe('who reviews: --reviewer, else git config user.name, else $USER', () => {
  it('takes each in that order and says which', () => {
    const both = setting('Ana Reviewer', 'ana')
    expect(resolveReviewer(' Bo ', both.env, both.dir)).toEqual({ name: 'Bo', from: '--reviewer' })
    expect(resolveReviewer(undefined, both.env, both.dir)).toEqual({ name: 'Ana Reviewer', from: 'git config user.name' })
    const userOnly = setting(null, 'ana')
    expect(resolveReviewer(undefined, userOnly.env, userOnly.dir)).toEqual({ name: 'ana', from: '$USER' })
  })

  it('stops when none of them names anyone', () => {
    const none = setting(null, undefined)
    expect(() => resolveReviewer(undefined, none.env, none.dir)).toThrow(
      'no reviewer name: pass --reviewer NAME (git config user.name and $USER are both unset)',
    )
  })
})
