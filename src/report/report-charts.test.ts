import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { px } from '../charts/svg.ts'
import { compareReports } from '../compare/compare-reports.ts'
import { writeComparison } from '../compare/write-comparison.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { writeReports } from './write-report.ts'

const temp = useTempDirs()
let full: Report
let retrieval: Report

beforeAll(async () => {
  const project = await loadProjectConfig()
  full = await evaluate(project, { tier: 'full', env: {} })
  retrieval = await evaluate(project, { tier: 'retrieval', env: {} })
})

/** The images latest.md / compare.md show: their relative paths. */
const imageLinks = (markdown: string) => [...markdown.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1])

describe('the charts of this repository’s run (reports/charts/)', () => {
  it('are written beside latest.md, which links each with a relative link', () => {
    const dir = temp.make('report-charts-')
    const written = writeReports(full, dir)
    const markdown = readFileSync(written.markdown, 'utf8')
    expect(imageLinks(markdown)).toEqual([
      'charts/metrics.svg',
      'charts/diagnosis.svg',
      'charts/latency.svg',
      'charts/funnel.svg',
    ])
    for (const link of imageLinks(markdown)) expect(existsSync(join(dir, link!))).toBe(true)
    expect(written.charts).toEqual(
      ['metrics.svg', 'diagnosis.svg', 'latency.svg', 'funnel.svg'].map((f) => join(dir, 'charts', f)),
    )
    // The funnel's bars: each answer document once, survived drawn at 420 x its share.
    const funnel = full.summary.funnel!
    const svg = readFileSync(join(dir, 'charts/funnel.svg'), 'utf8')
    expect(svg).toContain(`${funnel.documents} answer documents of the answerable questions`)
    const survivedWidth = Math.round((funnel.survived / funnel.documents) * 420 * 100) / 100
    expect(svg).toContain(`width="${survivedWidth}" height="16" fill="#009e73"`)
  })

  it('draw the report’s own numbers: recall at 190 + 400 x its value, one dot per diagnosed question', () => {
    const dir = temp.make('report-charts-')
    writeReports(full, dir)
    const metrics = readFileSync(join(dir, 'charts/metrics.svg'), 'utf8')
    const recall = full.summary.recall!
    const interval = full.summary.intervals.recall!
    const row = metrics.slice(
      metrics.indexOf('<g data-metric="recall">'),
      metrics.indexOf('</g>', metrics.indexOf('<g data-metric="recall">')),
    )
    expect(row).toContain(`<circle cx="${px(190 + 400 * recall)}" cy="76"`)
    expect(row).toContain(`<line x1="${px(190 + 400 * interval.low)}" y1="76" x2="${px(190 + 400 * interval.high)}" y2="76"`)
    const baseline = full.gate!.metrics.find((m) => m.name === 'recall')!.baseline!
    expect(row).toContain(`<path d="M${px(190 + 400 * baseline)} 70.5`)

    const diagnosis = readFileSync(join(dir, 'charts/diagnosis.svg'), 'utf8')
    const counts = full.summary.diagnosis!
    const dots = diagnosis.match(/<circle [^>]*data-id="/g)!.length
    expect(dots).toBe(counts.healthy + counts['model ignores context'] + counts['retrieval misses'] + counts['both broken'])
    expect(diagnosis).toContain(`>healthy: ${counts.healthy}</text>`)
  })

  it('keep each stage’s time percentiles, whose 50th and 95th are latencyMs’ p50 and p95', () => {
    for (const stage of ['retrieve', 'generate', 'judge'] as const) {
      const percentiles = full.run.latencyPercentilesMs[stage]!
      expect(percentiles).toHaveLength(21)
      expect(percentiles[10]).toBe(full.run.latencyMs[stage]!.p50)
      expect(percentiles[19]).toBe(full.run.latencyMs[stage]!.p95)
      expect([...percentiles].sort((a, b) => a - b)).toEqual(percentiles)
    }
    expect(retrieval.run.latencyPercentilesMs.generate).toBeNull()
  })

  it('a retrieval-tier run has no diagnosis: its chart and link go, and no chart of the full run is left behind', () => {
    const dir = temp.make('report-charts-')
    writeReports(full, dir)
    writeReports(retrieval, dir)
    const markdown = readFileSync(join(dir, 'latest.md'), 'utf8')
    expect(imageLinks(markdown)).toEqual(['charts/metrics.svg', 'charts/latency.svg', 'charts/funnel.svg'])
    expect(existsSync(join(dir, 'charts/diagnosis.svg'))).toBe(false)
  })
})

describe('the charts of a comparison', () => {
  it('are written beside compare.md and show the questions B lost and each metric’s change', () => {
    // B: this run with three questions A hit turned into misses.
    const lost = full.questions.filter((q) => q.type === 'single' && q.hit).slice(0, 3)
    const b: Report = {
      ...full,
      questions: full.questions.map((q) => (lost.includes(q) ? { ...q, hit: false } : q)),
    }
    const sides = {
      a: { source: 'a.json', kind: 'report', env: {}, report: null },
      b: { source: 'b.json', kind: 'report', env: {}, report: null },
    } as const
    const result = compareReports(full, b, sides)
    const dir = temp.make('compare-charts-')
    const written = writeComparison(dir, result)
    const markdown = readFileSync(written.markdown, 'utf8')
    expect(imageLinks(markdown)).toEqual(['charts/compare-deltas.svg', 'charts/compare-flips.svg'])
    const flips = readFileSync(join(dir, 'charts/compare-flips.svg'), 'utf8')
    const recallFlips = result.flips.find((f) => f.metric === 'recall')!
    expect(recallFlips.worse.map((f) => f.id).sort()).toEqual(lost.map((q) => q.id).sort())
    for (const q of lost) expect(flips).toContain(`>${q.id} [single]</text>`)
    expect(flips.match(/fill="#d55e00"><title>worse in B/g)).toHaveLength(result.flips.reduce((n, f) => n + f.worse.length, 0))
    const deltas = readFileSync(join(dir, 'charts/compare-deltas.svg'), 'utf8')
    const recall = result.metrics.find((m) => m.name === 'recall')!
    expect(recall.delta).toBeLessThan(0)
    expect(deltas).toContain(`<g data-metric="recall">`)
  })
})
