import { spawnSync } from 'node:child_process'
import { InputError } from '../contract/input-error.ts'

/** Who reviews, and where the name came from (golden review says which). */
export interface Reviewer {
  name: string
  from: '--reviewer' | 'git config user.name' | '$USER'
}

/** git's user.name as git itself resolves it (repository, global, system config); null when unset or git is missing. */
function gitUserName(cwd: string, env: NodeJS.ProcessEnv): string | null {
  const result = spawnSync('git', ['config', 'user.name'], { cwd, env, encoding: 'utf8' })
  if (result.status !== 0 || typeof result.stdout !== 'string') return null
  const name = result.stdout.trim()
  return name === '' ? null : name
}

/** --reviewer, else `git config user.name`, else $USER; none of them: stop and say how to name one. */
export function resolveReviewer(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Reviewer {
  if (flag !== undefined && flag.trim() !== '') return { name: flag.trim(), from: '--reviewer' }
  const git = gitUserName(cwd, env)
  if (git !== null) return { name: git, from: 'git config user.name' }
  const user = env.USER?.trim()
  if (user !== undefined && user !== '') return { name: user, from: '$USER' }
  throw new InputError('no reviewer name: pass --reviewer NAME (git config user.name and $USER are both unset)')
}
