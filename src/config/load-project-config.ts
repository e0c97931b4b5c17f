import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { InputError } from '../contract/input-error.ts'
import { CONFIG_FILE_NAMES, findConfigFile } from './config-file.ts'
import { importModule } from './import-module.ts'
import { resolveProjectConfig, type ProjectConfig } from './project-config.ts'

/** `file:line:column field "name"` of the first `name:` in the config's text, so an error points into the file. */
function fieldLocator(file: string, text: string): (field: string) => string {
  return (field) => {
    const match = new RegExp(`(^|[\\s{,])(['"]?)${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\2\\s*:`, 'm').exec(text)
    if (!match) return `${file} field "${field}"`
    const offset = match.index + match[1]!.length
    const before = text.slice(0, offset)
    const line = before.split('\n').length
    return `${file}:${line}:${offset - before.lastIndexOf('\n')} field "${field}"`
  }
}

/**
 * Reads and validates rag-eval.config.ts, paths resolved against its folder. `overrides` (ragEval()'s inline options)
 * win over the file's fields, or are the whole config, rooted at `cwd`, when there is no file.
 */
export async function loadProjectConfig(
  options: {
    configFile?: string | undefined
    cwd?: string
    env?: NodeJS.ProcessEnv
    overrides?: Record<string, unknown> | undefined
  } = {},
): Promise<ProjectConfig> {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const overrides = options.overrides ?? {}
  const file = findConfigFile({ configFile: options.configFile, cwd, env })
  if (file === null) {
    if (Object.keys(overrides).length > 0) return resolveProjectConfig(overrides, { root: cwd, source: 'ragEval() options', env })
    throw new InputError(
      `no ${CONFIG_FILE_NAMES[0]} in ${cwd}; create one with \`rag-eval init\`, or name it with --config <file> or RAG_EVAL_CONFIG`,
    )
  }
  let exported: unknown
  try {
    exported = await importModule(file)
  } catch (error) {
    throw new InputError(`${file}: the config file failed to load: ${(error as Error).message.split('\n')[0]}`)
  }
  const values =
    typeof exported === 'object' && exported !== null && !Array.isArray(exported) ? { ...exported, ...overrides } : exported
  return resolveProjectConfig(values, {
    root: dirname(file),
    source: file,
    env,
    locate: fieldLocator(file, readFileSync(file, 'utf8')),
  })
}
