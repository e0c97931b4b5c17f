import type { Report } from '../contract/report-schema.ts'
import type { MetricVerdict } from '../contract/gate-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { gatedEntries, perType, summaryValue, type MetricEntry } from '../contract/metrics/metric.ts'
import { COLOURS, formatValue, line, linearScale, px, svgDocument, text } from './svg.ts'

/** One metric of the chart: this run's value with its 95% interval, and the baseline's value. */
export interface MetricRow {
  name: string
  label: string
  current: number | null
  interval: { low: number; high: number } | null
  baseline: number | null
  /** The gate's verdict on it (null: not gated, or no baseline). */
  status: 'regressed' | 'held' | 'improved' | 'not-comparable' | null
}

/**
 * The metrics chart's rows: every gated metric in the gate's order, one kept per type in the summary followed by its
 * per-type values; a metric neither this run nor the baseline has is left out.
 */
export function metricRows(report: Report, table: MetricTable = METRICS): MetricRow[] {
  const { summary, gate } = report
  const rows: MetricRow[] = []
  const row = (entry: MetricEntry, verdict: MetricVerdict | undefined): MetricRow => ({
    name: entry.name,
    label: entry.label,
    current: summaryValue(summary, entry.path),
    interval: summary.intervals[entry.path] ?? null,
    baseline: verdict?.baseline ?? null,
    status: verdict?.baseline === null || verdict === undefined ? null : verdict.status,
  })
  for (const entry of gatedEntries(table)) {
    rows.push(
      row(
        entry,
        gate?.metrics.find((m) => m.name === entry.name),
      ),
    )
    const { metric } = entry
    if (entry.name === metric.name && metric.gated === 'overall' && metric.byType === 'summary')
      rows.push(...perType(metric).map((typeEntry) => row(typeEntry, undefined)))
  }
  return rows.filter((row) => row.current !== null || row.baseline !== null)
}

/** The chart's geometry, exported for the tests: x = PLOT_LEFT + value * PLOT_WIDTH, row i centred at ROW_TOP + i * ROW_HEIGHT. */
export const METRIC_CHART = { PLOT_LEFT: 190, PLOT_WIDTH: 400, ROW_TOP: 76, ROW_HEIGHT: 26, WIDTH: 900 } as const

const STATUS_COLOUR = {
  regressed: COLOURS.worse,
  improved: COLOURS.better,
  held: COLOURS.current,
  'not-comparable': COLOURS.current,
} as const

/** metrics.svg: each metric now, with its interval, against the baseline (docs/charts.md). */
export function metricIntervalsChart(rows: readonly MetricRow[], title = 'Gated metrics: this run vs the baseline'): string {
  const { PLOT_LEFT, PLOT_WIDTH, ROW_TOP, ROW_HEIGHT, WIDTH } = METRIC_CHART
  const x = linearScale([0, 1], [PLOT_LEFT, PLOT_LEFT + PLOT_WIDTH])
  const bottom = ROW_TOP + Math.max(rows.length, 1) * ROW_HEIGHT - ROW_HEIGHT / 2
  const body: string[] = [
    // Legend.
    `<circle cx="${PLOT_LEFT}" cy="44" r="4" fill="${COLOURS.current}"/>`,
    text(PLOT_LEFT + 8, 48, 'this run, 95% interval', { fill: COLOURS.muted }),
    diamond(PLOT_LEFT + 160, 44),
    text(PLOT_LEFT + 168, 48, 'baseline', { fill: COLOURS.muted }),
    `<circle cx="${PLOT_LEFT + 236}" cy="44" r="4" fill="${COLOURS.worse}"/>`,
    text(PLOT_LEFT + 244, 48, 'regressed', { fill: COLOURS.muted }),
    `<circle cx="${PLOT_LEFT + 312}" cy="44" r="4" fill="${COLOURS.better}"/>`,
    text(PLOT_LEFT + 320, 48, 'improved', { fill: COLOURS.muted }),
  ]
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    body.push(line(x(tick), ROW_TOP - ROW_HEIGHT / 2, x(tick), bottom, COLOURS.grid))
    body.push(text(x(tick), bottom + 16, String(tick), { anchor: 'middle', fill: COLOURS.muted }))
  }
  if (rows.length === 0) body.push(text(PLOT_LEFT, ROW_TOP + 4, 'no metric was computed in this run', { fill: COLOURS.muted }))
  rows.forEach((row, i) => {
    const y = ROW_TOP + i * ROW_HEIGHT
    const colour = row.status === null ? COLOURS.current : STATUS_COLOUR[row.status]
    body.push(`<g data-metric="${row.name}">`)
    body.push(text(PLOT_LEFT - 10, y + 4, row.label, { anchor: 'end' }))
    if (row.interval) {
      const [low, high] = [x(clamp(row.interval.low)), x(clamp(row.interval.high))]
      body.push(line(low, y, high, y, colour, 'stroke-width="2"'))
      body.push(line(low, y - 5, low, y + 5, colour, 'stroke-width="2"'))
      body.push(line(high, y - 5, high, y + 5, colour, 'stroke-width="2"'))
    }
    if (row.baseline !== null) body.push(diamond(x(clamp(row.baseline)), y))
    if (row.current !== null) body.push(`<circle cx="${px(x(clamp(row.current)))}" cy="${px(y)}" r="4.5" fill="${colour}"/>`)
    body.push(text(PLOT_LEFT + PLOT_WIDTH + 16, y + 4, describeRow(row), { fill: COLOURS.muted }))
    body.push('</g>')
  })
  return svgDocument(
    {
      width: WIDTH,
      height: bottom + 32,
      title,
      description:
        'Each metric of this run as a dot with its 95% interval as whiskers, the baseline as a hollow diamond, on a 0 to 1 axis.',
    },
    body,
  )
}

/** "0.888 [0.82, 0.94] · baseline 0.888 · held". */
export function describeRow(row: MetricRow): string {
  const current = row.current === null ? 'n/a' : formatValue(row.current)
  const interval = row.interval ? ` [${formatValue(row.interval.low)}, ${formatValue(row.interval.high)}]` : ''
  const baseline = row.baseline === null ? '' : ` · baseline ${formatValue(row.baseline)}`
  const status = row.status === null ? '' : ` · ${row.status}`
  return `${current}${interval}${baseline}${status}`
}

function diamond(cx: number, cy: number): string {
  const r = 5.5
  return `<path d="M${px(cx)} ${px(cy - r)} L${px(cx + r)} ${px(cy)} L${px(cx)} ${px(cy + r)} L${px(cx - r)} ${px(cy)} Z" fill="none" stroke="${COLOURS.baseline}" stroke-width="1.5"/>`
}

const clamp = (value: number) => Math.min(1, Math.max(0, value))
