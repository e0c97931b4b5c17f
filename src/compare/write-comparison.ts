import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import type { CompareResult } from './comparison-schema.ts'
import { renderComparison } from './render-comparison.ts'

/** Writes compare.json and compare.md into `dir` (each atomically); returns their paths. */
export function writeComparison(dir: string, result: CompareResult): { json: string; markdown: string } {
  const json = join(dir, 'compare.json')
  const markdown = join(dir, 'compare.md')
  writeFileAtomic(json, JSON.stringify(result, null, 2) + '\n')
  writeFileAtomic(markdown, renderComparison(result, 'markdown'))
  return { json, markdown }
}
