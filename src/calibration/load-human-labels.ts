import { existsSync } from 'node:fs'
import { readJsonFile } from '../files/read-json-file.ts'
import { HumanLabelsSchema, type HumanLabel } from './human-labels-schema.ts'

/** Reads the human labels; an absent file means no labels yet (the judge is then uncalibrated). */
export function loadHumanLabels(file: string): HumanLabel[] | null {
  if (!existsSync(file)) return null
  return readJsonFile(file, HumanLabelsSchema, 'fix it or relabel with `rag-eval label --redraw`').labels
}
