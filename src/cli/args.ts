import { parseArgs } from 'node:util'
import { InputError } from '../contract/input-error.ts'
import type { Kind } from './arg-kinds.ts'
import type { Io } from './run-cli.ts'

/**
 * The one command-line parser of every rag-eval command (over node:util parseArgs), throwing a one-line UsageError.
 * `--help`/`-h` anywhere wins over every other problem, so a confused user always gets the usage.
 */

/** What a command runs with: the dispatcher's input and output (the process's in the bin) and the global --config. */
export interface CommandContext extends Io {
  /** `rag-eval --config <file>`: the config file the commands that read one use; undefined: their default. */
  readonly config: string | undefined
}

/** A usage mistake: its message is one line; the command adds its usage lines under it. */
export class UsageError extends InputError {
  override name = 'UsageError'
}

/**
 * One option, as data. `T` is the type of its value after parsing (carried by the phantom `value`):
 * boolean for a flag, T[] for a repeatable option, T | undefined for an optional one without default.
 */
export interface OptionSpec<T> {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  readonly multiple: boolean
  readonly required: boolean
  /** The kind of its value; absent for a flag. */
  readonly kind?: Kind<unknown>
  /** Its default when absent, validated like a given value. */
  readonly default?: string
  readonly value?: T
}

export interface PositionalSpec<T> {
  /** Its name in the usage, e.g. qrels for <qrels>. */
  readonly name: string
  readonly kind: Kind<T>
  /** The last positional only: every argument from here on, at least one (its value is a list). */
  readonly rest?: true
}

/** A boolean switch: present or not; it takes no value. */
export function flag(settings: { short?: string } = {}): OptionSpec<boolean> {
  return { type: 'boolean', ...settings, multiple: false, required: false }
}

/** An option with a value of `kind`: its default when absent, or required, or else undefined when absent. */
export function option<T>(kind: Kind<T>, settings: { default: string; short?: string }): OptionSpec<T>
export function option<T>(kind: Kind<T>, settings: { required: true; short?: string }): OptionSpec<T>
export function option<T>(kind: Kind<T>, settings?: { short?: string }): OptionSpec<T | undefined>
export function option<T>(
  kind: Kind<T>,
  settings: { default?: string; required?: true; short?: string } = {},
): OptionSpec<T | undefined> {
  const { required, ...rest } = settings
  return { type: 'string', ...rest, kind, multiple: false, required: required === true }
}

/** An option that may be given several times; every value is parsed; none given: []. */
export function repeatable<T>(kind: Kind<T>, settings: { short?: string } = {}): OptionSpec<T[]> {
  return { type: 'string', ...settings, kind, multiple: true, required: false }
}

export type OptionSpecs = Record<string, OptionSpec<unknown>>
export type OptionValues<O extends OptionSpecs> = { [K in keyof O]: O[K] extends OptionSpec<infer T> ? T : never }
export type PositionalValues<P extends readonly PositionalSpec<unknown>[]> = {
  -readonly [I in keyof P]: P[I] extends PositionalSpec<infer T> ? (P[I] extends { rest: true } ? T[] : T) : never
}

type Parsed<O extends OptionSpecs, P extends readonly PositionalSpec<unknown>[]> =
  { help: true } | { help: false; values: OptionValues<O>; positionals: PositionalValues<P> }

/** `'x y'`, `''`: the text as the user would type it back. */
function shown(text: string): string {
  return text === '' || /\s/.test(text) ? `'${text}'` : text
}

/** A value token that is really the next option (`--golden --json`): the value is missing. Negative numbers are values. */
const looksLikeOption = (value: string) => value.length > 1 && value.startsWith('-') && !/^-\d/.test(value)

/** Parses `argv` for a command; `-h`/`--help` are always accepted. */
export function parseCommandLine<O extends OptionSpecs, P extends readonly PositionalSpec<unknown>[]>(
  argv: readonly string[],
  options: O,
  positionals: P,
): Parsed<O, P> {
  const config = Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      { type: spec.type, multiple: spec.multiple, ...(spec.short === undefined ? {} : { short: spec.short }) },
    ]),
  )
  const { tokens } = parseArgs({
    args: [...argv],
    options: { ...config, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help')) return { help: true }

  const given: Record<string, string | string[] | boolean> = {}
  const texts: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') texts.push(token.value)
    if (token.kind !== 'option') continue
    const spec = options[token.name]
    const label = token.rawName
    if (spec === undefined) throw new UsageError(`unknown option ${label}`)
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${label} takes no value (given ${shown(token.value)})`)
      given[token.name] = true
    } else {
      if (token.value === undefined || (!token.inlineValue && looksLikeOption(token.value)))
        throw new UsageError(`${label}: missing value (expected ${spec.kind?.expected})`)
      given[token.name] = spec.multiple ? [...((given[token.name] as string[] | undefined) ?? []), token.value] : token.value
    }
  }

  const values: Record<string, unknown> = {}
  for (const [name, spec] of Object.entries(options)) {
    const raw = given[name]
    if (spec.kind === undefined) values[name] = raw === true
    else if (spec.multiple)
      values[name] = ((raw as string[] | undefined) ?? []).map((text) => parseValue(`--${name}`, text, spec.kind!))
    else if (typeof raw === 'string') values[name] = parseValue(`--${name}`, raw, spec.kind)
    else if (spec.default !== undefined) values[name] = parseValue(`--${name}`, spec.default, spec.kind)
    else if (spec.required) throw new UsageError(`missing --${name} (expected ${spec.kind.expected})`)
    else values[name] = undefined
  }

  const rest = positionals.at(-1)?.rest === true
  if (texts.length > positionals.length && !rest) throw new UsageError(`unexpected argument ${shown(texts[positionals.length]!)}`)
  if (texts.length < positionals.length) {
    const missing = positionals.slice(texts.length)
    throw new UsageError(
      `missing ${missing.map((p) => `<${p.name}>`).join(' ')} (expected ${missing.map((p) => p.kind.expected).join(', ')})`,
    )
  }
  const parsedPositionals = positionals.map((p, i) =>
    p.rest ? texts.slice(i).map((text) => parseValue(`<${p.name}>`, text, p.kind)) : parseValue(`<${p.name}>`, texts[i]!, p.kind),
  )
  return { help: false, values: values as OptionValues<O>, positionals: parsedPositionals as PositionalValues<P> }
}

/** The value of `text` for the option or positional `label`; a rejection becomes a UsageError naming both. */
export function parseValue<T>(label: string, text: string, kind: Kind<T>): T {
  try {
    return kind.parse(text)
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(`${label} ${shown(text)}: ${error.message}`)
    throw error
  }
}
