import { statSync, type Stats } from 'node:fs'
import { dirname } from 'node:path'
import { InputError } from '../contract/input-error.ts'

/**
 * A command-line value's kind: `parse` returns the typed value or throws an InputError with the reason; the parser
 * puts the option and the text in front of it.
 */
export interface Kind<T> {
  /** What a valid value is, for messages: "a positive integer", "a file". */
  readonly expected: string
  readonly parse: (text: string) => T
}

/** A kind from its description and a parser; `parse` throws an InputError (or returns the value). */
export function kind<T>(expected: string, parse: (text: string) => T): Kind<T> {
  return { expected, parse }
}

const rejectExpecting = (what: string): never => {
  throw new InputError(`expected ${what}`)
}

export const text: Kind<string> = kind('a value', (value) => value)

/** A number of `pattern`'s form in the range (`above`: strictly greater), described as an integer or a number. */
function numeric(
  noun: 'integer' | 'number',
  pattern: RegExp,
  range: { above?: number; min?: number; max?: number },
): Kind<number> {
  const { above, min, max } = range
  const a = noun === 'integer' ? 'an' : 'a'
  const expected =
    (noun === 'integer' ? min === 1 : above === 0) && max === undefined
      ? `a positive ${noun}`
      : min !== undefined && max !== undefined
        ? `${a} ${noun} from ${min} to ${max}`
        : min !== undefined
          ? `${a} ${noun} >= ${min}`
          : `${a} ${noun}`
  return kind(expected, (value) => {
    const n = pattern.test(value) ? Number(value) : NaN
    if (
      !(noun === 'integer' ? Number.isSafeInteger(n) : Number.isFinite(n)) ||
      (above !== undefined && n <= above) ||
      (min !== undefined && n < min) ||
      (max !== undefined && n > max)
    )
      rejectExpecting(expected)
    return n
  })
}

/** Decimal digits only (no 0x10, 1e3, or blanks: Number() would read those). */
export const integer = (range: { min?: number; max?: number } = {}) => numeric('integer', /^[+-]?\d+$/, range)

export const positiveInteger = integer({ min: 1 })

/** A decimal number (digits, one optional point; no exponent, hex or Infinity). `above`: strictly greater. */
export const decimal = (range: { above?: number; min?: number; max?: number } = {}) =>
  numeric('number', /^[+-]?(\d+\.?\d*|\.\d+)$/, range)

export const positiveNumber = decimal({ above: 0 })

export function oneOf<const T extends string>(choices: readonly T[]): Kind<T> {
  const expected = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`
  return kind(expected, (value) => ((choices as readonly string[]).includes(value) ? (value as T) : rejectExpecting(expected)))
}

// Paths: each says which of file / folder / nothing it found when that is not what it expects.

function stat(path: string): Stats | null {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function notAFolder(path: string): string {
  if (stat(path)?.isDirectory()) throw new InputError('expected a file, found a folder')
  return path
}

function notAFile(path: string): string {
  const found = stat(path)
  if (found !== null && !found.isDirectory()) throw new InputError('expected a folder, found a file')
  return path
}

/** An existing file. */
export const file: Kind<string> = kind('a file', (path) => {
  if (stat(path) === null) throw new InputError('not found (expected a file)')
  return notAFolder(path)
})

/** An existing folder. */
export const folder: Kind<string> = kind('a folder', (path) => {
  if (stat(path) === null) throw new InputError('not found (expected a folder)')
  return notAFile(path)
})

/** A file if there is one (an optional input), never a folder. */
export const fileOrAbsent: Kind<string> = kind('a file (or nothing there yet)', notAFolder)

/** The path, unless a file stands where one of its folders should be (the folders are created when written). */
function foldersCanBeMade(path: string): string {
  for (let parent = dirname(path); ; parent = dirname(parent)) {
    const found = stat(parent)
    if (found !== null) {
      if (!found.isDirectory()) throw new InputError(`${parent} is a file, not a folder`)
      return path
    }
    if (dirname(parent) === parent) return path
  }
}

/** A folder if there is one (an output folder, created with its parents when absent), never a file; '' passes through. */
export const folderOrAbsent: Kind<string> = kind('a folder (or nothing there yet)', (path) =>
  path === '' ? path : foldersCanBeMade(notAFile(path)),
)

/**
 * A file to write, never a folder; missing folders are created on write, so `--out evals/golden-set.json` works
 * without evals/.
 */
export const fileToWrite: Kind<string> = kind('a file to write', (path) => foldersCanBeMade(notAFolder(path)))
