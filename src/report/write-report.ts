import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Report } from './report-schema.ts'
import { attributionRecords } from './attribution.ts'
import { renderMarkdown } from './render-markdown.ts'

/** Writes a file atomically: a temp file beside it, then a rename, so a reader never sees half a report. */
export function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temp, content)
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

/** The report as written: pretty JSON with a trailing newline (stable key order comes from the builder). */
export function serialiseReport(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n'
}

/**
 * Writes latest.json, latest.md and attribution.jsonl (one record per failing question) into `dir`,
 * each atomically; returns their paths.
 */
export function writeReports(report: Report, dir: string): { json: string; markdown: string; attribution: string } {
  const json = join(dir, 'latest.json')
  const markdown = join(dir, 'latest.md')
  const attribution = join(dir, 'attribution.jsonl')
  writeFileAtomic(json, serialiseReport(report))
  writeFileAtomic(markdown, renderMarkdown(report))
  writeFileAtomic(attribution, attributionRecords(report).map((record) => JSON.stringify(record) + '\n').join(''))
  return { json, markdown, attribution }
}
