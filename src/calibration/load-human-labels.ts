import { existsSync, readFileSync } from 'node:fs'
import { InputError } from '../load/input-error.ts'
import { HumanLabelsSchema, type HumanLabel } from './human-labels-schema.ts'

/** Reads the human labels; an absent file means no labels yet (the judge is then uncalibrated). */
export function loadHumanLabels(file: string): HumanLabel[] | null {
  if (!existsSync(file)) return null
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`)
  }
  const parsed = HumanLabelsSchema.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${file}: field "${issue.path.join('.')}": ${issue.message}`)
  }
  return parsed.data.labels
}
