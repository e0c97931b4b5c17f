import { existsSync } from 'node:fs'
import { InputError } from '../contract/input-error.ts'
import { jsonSpans, lineAt } from '../files/json-spans.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import { readUtf8File } from '../files/utf8-text.ts'
import { HumanLabelsSchema, type HumanLabel } from './human-labels-schema.ts'

const HINT = 'fix it or relabel with `rag-eval label --redraw`'

/** The human labels, and a warning for each label of a question the run does not have. */
export interface LoadedLabels {
  labels: HumanLabel[]
  warnings: string[]
}

/**
 * Reads the human labels; an absent file means no labels yet (the judge is then uncalibrated). A question labelled
 * twice is an error (which label would count?); a label of a question not in `questionIds` (the golden set) is
 * left out of the calibration anyway (no answer to compare), and named in a warning so it is removed.
 */
export function loadHumanLabels(file: string, questionIds: ReadonlySet<string>): LoadedLabels | null {
  if (!existsSync(file)) return null
  const { labels } = readJsonFile(file, HumanLabelsSchema, HINT)
  const text = readUtf8File(file, HINT)
  const elements = jsonSpans(text).members.find((member) => member.key === 'labels')!.value.elements
  const lineOf = (index: number) => lineAt(text, elements[index]!.start)
  const first = new Map<string, number>()
  labels.forEach((label, index) => {
    const earlier = first.get(label.id)
    if (earlier !== undefined)
      throw new InputError(
        `${file}:${lineOf(index)}: question "${label.id}" is labelled twice (first at line ${lineOf(earlier)}); keep one label per question`,
      )
    first.set(label.id, index)
  })
  // A file with no label of this golden set is another golden set's (a test project's): the calibration says so.
  const ofThisSet = labels.some((label) => questionIds.has(label.id))
  const warnings = labels.flatMap((label, index) =>
    !ofThisSet || questionIds.has(label.id)
      ? []
      : [
          `${file}:${lineOf(index)}: human label of question "${label.id}", which is not in the golden set: left out; delete the label`,
        ],
  )
  return { labels, warnings }
}
