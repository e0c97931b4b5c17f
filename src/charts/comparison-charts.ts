import { COLOURS, escapeXml, formatValue, line, linearScale, px, svgDocument, text } from './svg.ts'

/** What the comparison charts read of compare.json (src/compare/comparison-schema.ts), structurally: no import of compare/. */
export interface ComparedMetric {
  name: string
  label: string
  a: number | null
  b: number | null
  delta: number | null
  deltaInterval: { low: number; high: number } | null
  pValue: number | null
  verdict: 'worse' | 'better' | 'no-difference' | null
}
export interface FlippedQuestions {
  metric: string
  label: string
  worse: readonly { id: string; type: string }[]
  better: readonly { id: string; type: string }[]
}

/** Geometry for the tests: x = ZERO + delta / extent * HALF_WIDTH, row i centred at ROW_TOP + i * ROW_HEIGHT. */
export const DELTA_CHART = { ZERO: 440, HALF_WIDTH: 200, ROW_TOP: 76, ROW_HEIGHT: 26, WIDTH: 940 } as const

const NICE_EXTENTS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1] as const

/** The half-width of the delta axis: the smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1 that holds every delta and interval. */
export function deltaExtent(metrics: readonly ComparedMetric[]): number {
  const largest = Math.max(
    0,
    ...metrics.flatMap((m) => [m.delta ?? 0, m.deltaInterval?.low ?? 0, m.deltaInterval?.high ?? 0].map(Math.abs)),
  )
  return NICE_EXTENTS.find((extent) => extent >= largest) ?? Math.ceil(largest)
}

const VERDICT_COLOUR = { worse: COLOURS.worse, better: COLOURS.better, 'no-difference': COLOURS.current } as const

/** compare-deltas.svg: B - A for every metric with its paired interval (docs/charts.md). */
export function deltaChart(metrics: readonly ComparedMetric[], title = 'B vs A: the change of each metric'): string {
  const { ZERO, HALF_WIDTH, ROW_TOP, ROW_HEIGHT, WIDTH } = DELTA_CHART
  const rows = metrics.filter((m) => m.delta !== null)
  const extent = deltaExtent(rows)
  const x = linearScale([-extent, extent], [ZERO - HALF_WIDTH, ZERO + HALF_WIDTH])
  const bottom = ROW_TOP + Math.max(rows.length, 1) * ROW_HEIGHT - ROW_HEIGHT / 2
  const body: string[] = [
    text(16, 46, 'dot: B - A; whiskers: its 95% paired interval; vermilion: B significantly worse, green: significantly better', {
      fill: COLOURS.muted,
    }),
  ]
  for (const tick of [-extent, -extent / 2, 0, extent / 2, extent]) {
    body.push(line(x(tick), ROW_TOP - ROW_HEIGHT / 2, x(tick), bottom, tick === 0 ? COLOURS.muted : COLOURS.grid))
    body.push(text(x(tick), bottom + 16, `${tick > 0 ? '+' : ''}${formatValue(tick)}`, { anchor: 'middle', fill: COLOURS.muted }))
  }
  if (rows.length === 0) body.push(text(ZERO, ROW_TOP + 4, 'no metric was compared', { anchor: 'middle', fill: COLOURS.muted }))
  rows.forEach((metric, i) => {
    const y = ROW_TOP + i * ROW_HEIGHT
    const colour = metric.verdict === null ? COLOURS.neutral : VERDICT_COLOUR[metric.verdict]
    body.push(`<g data-metric="${escapeXml(metric.name)}">`)
    body.push(text(ZERO - HALF_WIDTH - 10, y + 4, metric.label, { anchor: 'end' }))
    if (metric.deltaInterval) {
      const [low, high] = [x(metric.deltaInterval.low), x(metric.deltaInterval.high)]
      body.push(line(low, y, high, y, colour, 'stroke-width="2"'))
      body.push(line(low, y - 5, low, y + 5, colour, 'stroke-width="2"'))
      body.push(line(high, y - 5, high, y + 5, colour, 'stroke-width="2"'))
    }
    body.push(`<circle cx="${px(x(metric.delta!))}" cy="${px(y)}" r="4.5" fill="${colour}"/>`)
    const p = metric.pValue === null ? '' : `, p ${metric.pValue < 0.001 ? '<0.001' : formatValue(metric.pValue)}`
    body.push(
      text(ZERO + HALF_WIDTH + 16, y + 4, `A ${show(metric.a)} → B ${show(metric.b)} (${signed(metric.delta!)}${p})`, {
        fill: COLOURS.muted,
      }),
    )
    body.push('</g>')
  })
  return svgDocument(
    {
      width: WIDTH,
      height: bottom + 32,
      title,
      description: 'For each metric, the change from run A to run B with its 95% paired interval, around zero.',
    },
    body,
  )
}

/** Geometry for the tests: the question in row i at ROW_TOP + i * ROW_HEIGHT, metric j's column centred at COLUMN_LEFT + j * COLUMN_WIDTH. */
export const FLIP_CHART = { ROW_TOP: 96, ROW_HEIGHT: 20, COLUMN_LEFT: 240, COLUMN_WIDTH: 190, MAX_ROWS: 60 } as const

/** The flipped questions, a row each, a column per binary metric; past MAX_ROWS it says how many more compare.md lists. */
export function flipChart(flips: readonly FlippedQuestions[]): string {
  const { ROW_TOP, ROW_HEIGHT, COLUMN_LEFT, COLUMN_WIDTH, MAX_ROWS } = FLIP_CHART
  const types = new Map<string, string>()
  for (const f of flips) for (const q of [...f.worse, ...f.better]) types.set(q.id, q.type)
  const ids = [...types.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  const shown = ids.slice(0, MAX_ROWS)
  const worse = flips.reduce((n, f) => n + f.worse.length, 0)
  const better = flips.reduce((n, f) => n + f.better.length, 0)
  const body: string[] = [
    text(
      16,
      46,
      `${ids.length} question${ids.length === 1 ? '' : 's'} flipped: ${worse} worse in B (▼), ${better} better in B (▲)`,
      {
        fill: COLOURS.muted,
      },
    ),
  ]
  flips.forEach((f, j) => {
    body.push(text(COLUMN_LEFT + j * COLUMN_WIDTH, ROW_TOP - 22, f.label, { anchor: 'middle', weight: 600 }))
  })
  shown.forEach((id, i) => {
    const y = ROW_TOP + i * ROW_HEIGHT
    if (i % 2 === 0)
      body.push(
        `<rect x="16" y="${px(y - ROW_HEIGHT / 2)}" width="${px(COLUMN_LEFT + Math.max(flips.length - 1, 0) * COLUMN_WIDTH + COLUMN_WIDTH / 2 - 16)}" height="${ROW_HEIGHT}" fill="#f6f8fa"/>`,
      )
    body.push(text(24, y + 4, `${id} [${types.get(id)}]`))
    flips.forEach((f, j) => {
      const cx = COLUMN_LEFT + j * COLUMN_WIDTH
      if (f.worse.some((q) => q.id === id)) body.push(triangle(cx, y, 'down'))
      else if (f.better.some((q) => q.id === id)) body.push(triangle(cx, y, 'up'))
    })
  })
  const last = ROW_TOP + Math.max(shown.length, 1) * ROW_HEIGHT
  if (ids.length === 0) body.push(text(24, ROW_TOP + 4, 'no question flipped', { fill: COLOURS.muted }))
  if (ids.length > shown.length)
    body.push(text(24, last + 8, `and ${ids.length - shown.length} more (compare.md lists every one)`, { fill: COLOURS.muted }))
  return svgDocument(
    {
      width: Math.max(COLUMN_LEFT + flips.length * COLUMN_WIDTH, 520),
      height: last + 28,
      title: 'Questions that flipped from A to B',
      description:
        'One row per question whose outcome changed between A and B, one column per metric: down worse in B, up better.',
    },
    body,
  )
}

/** ▼ (worse, vermilion) or ▲ (better, green) centred at (cx, cy). */
export function triangle(cx: number, cy: number, direction: 'up' | 'down'): string {
  const r = 6
  const points =
    direction === 'up'
      ? [cx, cy - r, cx + r, cy + r * 0.7, cx - r, cy + r * 0.7]
      : [cx, cy + r, cx + r, cy - r * 0.7, cx - r, cy - r * 0.7]
  const colour = direction === 'up' ? COLOURS.better : COLOURS.worse
  return `<polygon points="${points.map(px).join(' ')}" fill="${colour}"><title>${direction === 'up' ? 'better in B' : 'worse in B'}</title></polygon>`
}

const show = (value: number | null) => (value === null ? 'n/a' : formatValue(value))
const signed = (value: number) => `${value > 0 ? '+' : ''}${formatValue(value)}`
