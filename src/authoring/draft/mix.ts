import { InputError } from '../../contract/input-error.ts'
import { QUESTION_TYPE_ALIASES } from '../../contract/golden-set-schema.ts'
import { QUESTION_TYPES, type QuestionType } from '../../contract/question-types.ts'

/** The share of each question type in a drafted set. */
export type Mix = Record<QuestionType, number>

/** The practice's mix: mostly single-document questions, a quarter multi-document, a tenth each contradiction and none. */
export const DEFAULT_MIX = 'single=0.55,multi=0.25,contradiction=0.1,none=0.1'

const GRAMMAR = 'type=share,... such as single=0.55,multi=0.25,contradiction=0.1,none=0.1'

/** Parses `single=0.55,multi=0.25,...` (aliases allowed, shares summing to 1, missing types 0); mistakes are InputErrors. */
export function parseMix(text: string): Mix {
  const mix: Mix = { single: 0, multi: 0, contradiction: 0, none: 0 }
  const seen = new Set<QuestionType>()
  for (const part of text.split(',')) {
    const match = /^\s*([A-Za-z-]+)\s*=\s*([0-9]*\.?[0-9]+)\s*$/.exec(part)
    if (!match) throw new InputError(`"${part.trim()}" is not type=share; expected ${GRAMMAR}`)
    const name = match[1]!
    const type = (
      name in QUESTION_TYPE_ALIASES ? QUESTION_TYPE_ALIASES[name as keyof typeof QUESTION_TYPE_ALIASES] : name
    ) as QuestionType
    if (!QUESTION_TYPES.includes(type))
      throw new InputError(`unknown type "${name}"; expected one of ${QUESTION_TYPES.join(', ')}`)
    if (seen.has(type)) throw new InputError(`${type} is given twice`)
    seen.add(type)
    const share = Number(match[2])
    if (share > 1) throw new InputError(`${name}=${match[2]}: a share is between 0 and 1`)
    mix[type] = share
  }
  const total = QUESTION_TYPES.reduce((sum, type) => sum + mix[type], 0)
  if (Math.abs(total - 1) > 0.001)
    throw new InputError(`the shares add up to ${Number(total.toFixed(4))}, not 1; expected ${GRAMMAR}`)
  return mix
}

/**
 * Counts per type by largest remainder (ties: single, multi, contradiction, none): each type within one of its share,
 * the counts summing to `count`.
 */
export function allocate(count: number, mix: Mix): Record<QuestionType, number> {
  const exact = QUESTION_TYPES.map((type) => ({ type, value: count * mix[type] }))
  const counts = Object.fromEntries(exact.map(({ type, value }) => [type, Math.floor(value + 1e-9)])) as Record<
    QuestionType,
    number
  >
  let left = count - QUESTION_TYPES.reduce((sum, type) => sum + counts[type], 0)
  const byRemainder = [...exact].sort((a, b) => b.value - Math.floor(b.value + 1e-9) - (a.value - Math.floor(a.value + 1e-9)))
  for (const { type } of byRemainder) {
    if (left <= 0) break
    counts[type] += 1
    left -= 1
  }
  return counts
}
