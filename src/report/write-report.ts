import { join } from 'node:path'
import { writeFileAtomic } from '../support/write-file-atomic.ts'
import type { Report } from '../contract/report-schema.ts'
import { attributionRecords } from './attribution.ts'
import { CONTEXTS_FILE, contextRecords, withoutContextTexts } from './context-sidecar.ts'
import { renderMarkdown } from './render-markdown.ts'

/**
 * The report as written, without the context texts: pretty JSON with a trailing newline (stable key order
 * comes from the builder), except that each question is one line: the same JSON value, a third smaller
 * for a large golden set (no indentation repeated in every nested field of every question), and a diff
 * shows one line per question that changed.
 */
export function serialiseReport(report: Report): string {
  const lean = withoutContextTexts(report)
  // The questions' place, filled in after the rest is pretty-printed (a NUL-fenced text no report holds).
  const marker = '\u0000questions\u0000'
  const pretty = JSON.stringify(Object.fromEntries(Object.entries(lean).map(([key, value]) => [key, key === 'questions' ? marker : value])), null, 2)
  const questions = lean.questions.length === 0 ? '[]' : `[\n${lean.questions.map((question) => `    ${JSON.stringify(question)}`).join(',\n')}\n  ]`
  return pretty.replace(JSON.stringify(marker), () => questions) + '\n'
}

/**
 * Writes latest.json, latest.md, attribution.jsonl (one record per failing question) and, when the
 * report carries its context texts (a fresh run), contexts.jsonl into `dir`, each atomically; returns their
 * paths.
 */
export function writeReports(report: Report, dir: string): { json: string; markdown: string; attribution: string; contexts: string | null } {
  return { json: writeLatestJson(dir, serialiseReport(report)), ...writeReportCompanions(report, dir) }
}

/** latest.json (serialiseReport's text, or its UTF-8 bytes), atomically; returns its path. */
export function writeLatestJson(dir: string, latestJson: string | Uint8Array): string {
  const json = join(dir, 'latest.json')
  writeFileAtomic(json, latestJson)
  return json
}

/** The reports beside latest.json: latest.md, attribution.jsonl and (with context texts) contexts.jsonl, each atomically. */
export function writeReportCompanions(report: Report, dir: string): { markdown: string; attribution: string; contexts: string | null } {
  const markdown = join(dir, 'latest.md')
  const attribution = join(dir, 'attribution.jsonl')
  writeFileAtomic(markdown, renderMarkdown(report))
  writeFileAtomic(attribution, attributionRecords(report).map((record) => JSON.stringify(record) + '\n').join(''))
  const texts = contextRecords(report)
  if (texts === null) return { markdown, attribution, contexts: null }
  const contexts = join(dir, CONTEXTS_FILE)
  writeFileAtomic(contexts, texts)
  return { markdown, attribution, contexts }
}
