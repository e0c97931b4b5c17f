import { InputError } from '../../contract/input-error.ts'
import { QuestionTypeSchema, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { QUESTION_TYPES, type QuestionType } from '../../contract/question-types.ts'
import { finding, type Finding } from './finding.ts'

export type TypeFloors = Record<QuestionType, number>

/** The minimum count per type for per-type metrics to mean something (configurable: --floors). */
export const DEFAULT_FLOORS: TypeFloors = { single: 50, multi: 20, contradiction: 8, none: 8 }

/**
 * Question types below their floors (warning, per type): per-type means over a handful of questions move in steps
 * of 1/n, so the gate cannot tell a regression from noise. Defaults: 50 single, 20 multi, 8 contradiction, 8 none.
 */
export function typeDistribution(questions: readonly GoldenQuestion[], floors: TypeFloors = DEFAULT_FLOORS): Finding[] {
  return QUESTION_TYPES.flatMap((type) => {
    const count = questions.filter((q) => q.type === type).length
    const floor = floors[type]
    if (count >= floor) return []
    return [
      finding(
        'type-distribution',
        null,
        `${count} ${type} question${count === 1 ? '' : 's'}, below the floor of ${floor}`,
        `write ${floor - count} more ${type} question${floor - count === 1 ? '' : 's'} (docs/golden-set.md says how)`,
      ),
    ]
  })
}

/** What --floors takes, for its usage and errors. */
export const FLOORS_EXPECTED = `type=count pairs, e.g. single=50,none=8 (types: ${QUESTION_TYPES.join(', ')})`

/** Floors from the command line (`single=50,multi=20`; types left out keep their default, aliases accepted). */
export function parseFloors(text: string): TypeFloors {
  const floors = { ...DEFAULT_FLOORS }
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const match = /^([a-z-]+)=(\d+)$/.exec(part)
    const type = match === null ? undefined : QuestionTypeSchema.safeParse(match[1]).data
    if (match === null || type === undefined) throw new InputError(`expected ${FLOORS_EXPECTED}`)
    floors[type] = Number(match[2])
  }
  return floors
}
