import type { Report } from '../contract/report-schema.ts'
import { COLOURS, line, linearScale, px, svgDocument, text } from './svg.ts'

/** One stage's wall times as 21 percentiles (0, 5, ..., 100), as the report keeps them. */
export interface LatencyRow {
  label: string
  percentiles: readonly number[]
}

/** The system's stages (retrieve, generate) and the judge's, those that ran. */
export function latencyRows(report: Report): LatencyRow[] {
  const { retrieve, generate, judge } = report.run.latencyPercentilesMs
  const rows: LatencyRow[] = []
  if (retrieve) rows.push({ label: 'system: retrieve', percentiles: retrieve })
  if (generate) rows.push({ label: 'system: generate', percentiles: generate })
  if (judge) rows.push({ label: 'judge', percentiles: judge })
  return rows
}

/** Geometry for the tests: x = PLOT_LEFT + (log10(ms) - log10(from)) / (log10(to) - log10(from)) * PLOT_WIDTH. */
export const LATENCY_CHART = { PLOT_LEFT: 150, PLOT_WIDTH: 480, ROW_TOP: 84, ROW_HEIGHT: 44, WIDTH: 900 } as const

/** The powers of ten around every time drawn (log axis): [10^floor(log10 min), 10^ceil(log10 max)], at least a decade. */
export function latencyDomain(rows: readonly LatencyRow[]): [number, number] {
  const values = rows.flatMap((r) => r.percentiles).filter((v) => v > 0)
  if (values.length === 0) return [0.01, 1]
  const low = 10 ** Math.floor(Math.log10(Math.min(...values)))
  const high = 10 ** Math.ceil(Math.log10(Math.max(...values)))
  return [low, high > low ? high : low * 10]
}

const at = (row: LatencyRow, p: number) => row.percentiles[p / 5]!

/** latency.svg: each stage's wall times on a log axis, as a box plot (docs/charts.md). */
export function latencyChart(rows: readonly LatencyRow[]): string {
  const { PLOT_LEFT, PLOT_WIDTH, ROW_TOP, ROW_HEIGHT, WIDTH } = LATENCY_CHART
  const [from, to] = latencyDomain(rows)
  const log = linearScale([Math.log10(from), Math.log10(to)], [PLOT_LEFT, PLOT_LEFT + PLOT_WIDTH])
  // Zero (a stage faster than the clock) sits at the axis' left end.
  const x = (ms: number) => log(Math.log10(Math.max(ms, from)))
  const bottom = ROW_TOP + Math.max(rows.length, 1) * ROW_HEIGHT - ROW_HEIGHT / 2
  const body: string[] = [
    text(16, 46, 'box: 25th to 75th percentile, line: median, whiskers: 5th to 95th, dots: fastest and slowest', {
      fill: COLOURS.muted,
    }),
  ]
  for (let exponent = Math.log10(from); exponent <= Math.log10(to) + 1e-9; exponent++) {
    const tick = 10 ** Math.round(exponent)
    body.push(line(x(tick), ROW_TOP - ROW_HEIGHT / 2, x(tick), bottom, COLOURS.grid))
    body.push(text(x(tick), bottom + 16, `${formatMs(tick)}`, { anchor: 'middle', fill: COLOURS.muted }))
  }
  body.push(
    text(PLOT_LEFT + PLOT_WIDTH / 2, bottom + 34, 'wall time per question (log scale)', {
      anchor: 'middle',
      fill: COLOURS.muted,
    }),
  )
  if (rows.length === 0) body.push(text(PLOT_LEFT, ROW_TOP + 4, 'no stage timed in this run', { fill: COLOURS.muted }))
  rows.forEach((row, i) => {
    const y = ROW_TOP + i * ROW_HEIGHT
    const colour = row.label === 'judge' ? COLOURS.purple : COLOURS.current
    body.push(`<g data-stage="${row.label}">`)
    body.push(text(PLOT_LEFT - 10, y + 4, row.label, { anchor: 'end' }))
    body.push(line(x(at(row, 5)), y, x(at(row, 95)), y, colour, 'stroke-width="1.5"'))
    body.push(line(x(at(row, 5)), y - 6, x(at(row, 5)), y + 6, colour, 'stroke-width="1.5"'))
    body.push(line(x(at(row, 95)), y - 6, x(at(row, 95)), y + 6, colour, 'stroke-width="1.5"'))
    const boxLeft = x(at(row, 25))
    body.push(
      `<rect x="${px(boxLeft)}" y="${px(y - 10)}" width="${px(Math.max(x(at(row, 75)) - boxLeft, 1))}" height="20" fill="${colour}" fill-opacity="0.25" stroke="${colour}"/>`,
    )
    body.push(line(x(at(row, 50)), y - 10, x(at(row, 50)), y + 10, colour, 'stroke-width="2.5"'))
    body.push(`<circle cx="${px(x(at(row, 0)))}" cy="${px(y)}" r="2.5" fill="${colour}"/>`)
    body.push(`<circle cx="${px(x(at(row, 100)))}" cy="${px(y)}" r="2.5" fill="${colour}"/>`)
    body.push(
      text(
        PLOT_LEFT + PLOT_WIDTH + 16,
        y + 4,
        `p50 ${formatMs(at(row, 50))} · p95 ${formatMs(at(row, 95))} · max ${formatMs(at(row, 100))}`,
        {
          fill: COLOURS.muted,
        },
      ),
    )
    body.push('</g>')
  })
  return svgDocument(
    {
      width: WIDTH,
      height: bottom + 48,
      title: 'Latency: the system and the judge',
      description: 'The distribution of each stage’s wall time per question, on a log axis.',
    },
    body,
  )
}

/** "0.05 ms", "3.8 ms", "1.2 s". */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${Number((ms / 1000).toPrecision(2))} s`
  return `${Number(ms.toPrecision(2))} ms`
}
