import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { InputError } from '../contract/input-error.ts'

// Apart from load-project-config.ts so that Vitest's config (ragEval(), which decides where the evaluation
// is hosted from the config's mode) can find the file without bundling the config's schemas.

/** The config file names looked for at the project root, in this order. */
export const CONFIG_FILE_NAMES = [
  'rag-eval.config.ts',
  'rag-eval.config.mts',
  'rag-eval.config.js',
  'rag-eval.config.mjs',
] as const

/** The config file to read: `--config`, else RAG_EVAL_CONFIG, else the first CONFIG_FILE_NAMES in `cwd`; null when there is none. */
export function findConfigFile(options: { configFile?: string | undefined; cwd: string; env: NodeJS.ProcessEnv }): string | null {
  const given = options.configFile ?? (options.env.RAG_EVAL_CONFIG || undefined)
  if (given !== undefined) {
    const file = resolve(options.cwd, given)
    const from = options.configFile !== undefined ? '--config' : 'RAG_EVAL_CONFIG'
    if (!existsSync(file)) throw new InputError(`${from} ${given}: config file not found`)
    if (statSync(file).isDirectory()) throw new InputError(`${from} ${given}: expected a config file, found a folder`)
    return file
  }
  for (const name of CONFIG_FILE_NAMES) {
    const file = resolve(options.cwd, name)
    if (existsSync(file)) return file
  }
  return null
}
