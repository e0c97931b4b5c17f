import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import type { CompareResult } from './comparison-schema.ts'
import { renderComparison } from './render-comparison.ts'
import { comparisonCharts } from '../charts/run-charts.ts'
import { writeCharts } from '../report/write-report.ts'

/** Writes compare.json, compare.md and the charts it links to (charts/compare-*.svg) into `dir`, each atomically; returns their paths. */
export function writeComparison(dir: string, result: CompareResult): { json: string; markdown: string; charts: string[] } {
  const json = join(dir, 'compare.json')
  const markdown = join(dir, 'compare.md')
  writeFileAtomic(json, JSON.stringify(result, null, 2) + '\n')
  const charts = writeCharts(dir, comparisonCharts(result))
  writeFileAtomic(markdown, renderComparison(result, 'markdown'))
  return { json, markdown, charts }
}
