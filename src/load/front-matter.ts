import { createRequire } from 'node:module'

/** A field line the fast path reads: a plain key, a colon, a space, a value on the same line. */
const FIELD = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/
/** Plain scalars YAML 1.2's core schema reads as something other than a string: null, booleans, numbers. */
const NOT_A_STRING = [
  /^(?:~|null|Null|NULL)$/,
  /^(?:true|True|TRUE|false|False|FALSE)$/,
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
]
/** A value that opens with a YAML indicator (quote, flow collection, anchor, tag, block scalar...) or holds a comment or mapping. */
const NOT_PLAIN = /^[-?:,[\]{}#&*!|>'"%@`]|: |:$| #|\t|[^\x20-\x7e\u00a0-\uffff]/

/**
 * The fields of front matter written as plain `key: text` lines, as YAML reads them, or null for anything else (the
 * YAML parser's): most front matter is such lines, spared the parser (docs/scaling.md, "Why the code is shaped as it is").
 */
function plainFields(source: string): Record<string, string> | null {
  const fields: Record<string, string> = {}
  for (const line of source.split(/\r?\n/)) {
    const match = FIELD.exec(line)
    if (!match) return null
    const [, key, raw] = match as unknown as [string, string, string | undefined]
    const value = raw?.trimEnd()
    if (value === undefined || value === '' || NOT_PLAIN.test(value) || NOT_A_STRING.some((pattern) => pattern.test(value)))
      return null
    if (NOT_A_STRING.some((pattern) => pattern.test(key)) || Object.hasOwn(fields, key)) return null
    fields[key] = value
  }
  return fields
}

let yaml: typeof import('yaml') | undefined

/** A front matter's YAML (the text between the `---` lines), parsed; the yaml package is loaded on first need. */
export function parseFrontMatter(source: string): unknown {
  const plain = plainFields(source)
  if (plain) return plain
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml')
  return yaml.parse(source)
}
