import { appendFileSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { CHARTS_DIR, runCharts, type Chart } from '../charts/run-charts.ts'
import type { Report } from '../contract/report-schema.ts'
import { attributionRecords } from './attribution.ts'
import { CONTEXTS_FILE, contextRecords, withoutContextTexts } from './context-sidecar.ts'
import { renderMarkdown } from './render-markdown.ts'
import { renderJobSummary, runArtifactsUrl } from './render-job-summary.ts'

/** Characters of latest.json per UTF-8 piece: large enough to be few, small enough that no copy of the whole text is made. */
const PIECE_CHARS = 1 << 20

/**
 * The report without context texts: pretty JSON, each question on one line (smaller; a diff shows a line per changed
 * question), as UTF-8 pieces so a large report never exists as one text (docs/scaling.md).
 */
export function serialisedReport(report: Report): Uint8Array[] {
  const lean = withoutContextTexts(report)
  // The questions' place, filled in after the rest is pretty-printed (a NUL-fenced text no report holds).
  const marker = '\u0000questions\u0000'
  const pretty = JSON.stringify(
    Object.fromEntries(Object.entries(lean).map(([key, value]) => [key, key === 'questions' ? marker : value])),
    null,
    2,
  )
  const fenced = JSON.stringify(marker)
  const at = pretty.indexOf(fenced)
  const encoder = new TextEncoder()
  const pieces: Uint8Array[] = []
  let text = pretty.slice(0, at) + (lean.questions.length === 0 ? '[]' : '[\n')
  lean.questions.forEach((question, i) => {
    text += `    ${JSON.stringify(question)}${i + 1 < lean.questions.length ? ',\n' : '\n  ]'}`
    if (text.length >= PIECE_CHARS) {
      pieces.push(encoder.encode(text))
      text = ''
    }
  })
  pieces.push(encoder.encode(`${text}${pretty.slice(at + fenced.length)}\n`))
  return pieces
}

/** serialisedReport as one text (a small report: a comparison's sides, tests). */
export function serialiseReport(report: Report): string {
  const decoder = new TextDecoder()
  return serialisedReport(report)
    .map((piece) => decoder.decode(piece))
    .join('')
}

/** Writes latest.json and its companions into `dir`, each atomically; returns their paths. */
export function writeReports(
  report: Report,
  dir: string,
  env: CiEnv = {},
): { json: string; markdown: string; attribution: string; contexts: string | null; charts: string[] } {
  return { json: writeLatestJson(dir, serialisedReport(report)), ...writeReportCompanions(report, dir, env) }
}

/** latest.json (serialisedReport's UTF-8 pieces), atomically; returns its path. */
export function writeLatestJson(dir: string, latestJson: readonly Uint8Array[]): string {
  const json = join(dir, 'latest.json')
  writeFileAtomic(json, latestJson)
  return json
}

/** The run's charts that a run of another kind may have left behind (a full run's diagnosis after a retrieval-tier run). */
const RUN_CHART_FILES = ['metrics.svg', 'diagnosis.svg', 'latency.svg']

/** Writes `charts` under `dir`/charts/ and removes those of `known` not drawn, so no chart of another run lingers. */
export function writeCharts(dir: string, charts: readonly Chart[], known: readonly string[] = []): string[] {
  const chartsDir = join(dir, CHARTS_DIR)
  mkdirSync(chartsDir, { recursive: true })
  for (const file of known) if (!charts.some((chart) => chart.file === file)) rmSync(join(chartsDir, file), { force: true })
  return charts.map((chart) => {
    const path = join(chartsDir, chart.file)
    writeFileAtomic(path, chart.render())
    return path
  })
}

/** The environment a CI system sets, of which the reports read GitHub Actions' job summary file and run address. */
export type CiEnv = Record<string, string | undefined>

/**
 * latest.md, summary.md (the verdict for a pull request; on GitHub Actions also appended to the job summary),
 * attribution.jsonl, contexts.jsonl (with context texts) and the charts, each atomically.
 */
export function writeReportCompanions(
  report: Report,
  dir: string,
  env: CiEnv = {},
): { markdown: string; attribution: string; contexts: string | null; charts: string[] } {
  const markdown = join(dir, 'latest.md')
  const attribution = join(dir, 'attribution.jsonl')
  const charts = writeCharts(dir, runCharts(report), RUN_CHART_FILES)
  writeFileAtomic(markdown, renderMarkdown(report))
  const summary = renderJobSummary(report, runArtifactsUrl(env))
  writeFileAtomic(join(dir, 'summary.md'), summary)
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summary)
  writeFileAtomic(
    attribution,
    attributionRecords(report)
      .map((record) => JSON.stringify(record) + '\n')
      .join(''),
  )
  const texts = contextRecords(report)
  if (texts === null) return { markdown, attribution, contexts: null, charts }
  const contexts = join(dir, CONTEXTS_FILE)
  writeFileAtomic(contexts, texts)
  return { markdown, attribution, contexts, charts }
}
