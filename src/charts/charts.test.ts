import { describe, expect, it } from 'vitest'
import { deltaChart, deltaExtent, flipChart, type ComparedMetric } from './comparison-charts.ts'
import { diagnosisChart, spread, type DiagnosisDot } from './diagnosis-chart.ts'
import { evidenceImage, wrapLine } from './evidence-image.ts'
import { formatMs, latencyChart, latencyDomain } from './latency-chart.ts'
import { describeRow, metricIntervalsChart, type MetricRow } from './metric-intervals-chart.ts'
import { escapeXml, px } from './svg.ts'

/** The markup of the group `<g data-<key>="value">…</g>`. */
function group(svg: string, key: string, value: string): string {
  const start = svg.indexOf(`<g data-${key}="${value}">`)
  if (start < 0) throw new Error(`no group data-${key}="${value}" in the chart`)
  return svg.slice(start, svg.indexOf('</g>', start))
}

describe('svg helpers', () => {
  it('escapes the five XML specials and rounds coordinates to two decimals', () => {
    expect(escapeXml(`q-1 <a & "b" 'c'>`)).toBe('q-1 &lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;')
    // No XML may hold a form feed (from a PDF) or another C0 control, even as &#12;: a space instead; tab and newline stay.
    expect(escapeXml('page\fbreak\u0000\u001f\ttab\nline\uffff')).toBe('page break  \ttab\nline ')
    expect(px(12.345678)).toBe('12.35')
    expect(px(-0.001)).toBe('0')
    expect(px(190)).toBe('190')
  })
})

describe('metricIntervalsChart', () => {
  const rows: MetricRow[] = [
    {
      name: 'recall',
      label: 'recall <ctx>',
      current: 0.75,
      interval: { low: 0.5, high: 0.9 },
      baseline: 0.8,
      status: 'regressed',
    },
    { name: 'mrr', label: 'MRR', current: 0.25, interval: null, baseline: null, status: null },
  ]
  const svg = metricIntervalsChart(rows)

  it('draws each value at x = 190 + 400 * value on its row (76, 102, ...), the interval as whiskers, the baseline as a diamond', () => {
    const recall = group(svg, 'metric', 'recall')
    // A regression in vermilion: the dot at 190 + 0.75 * 400 = 490, whiskers from 390 (0.5) to 550 (0.9).
    expect(recall).toContain('<circle cx="490" cy="76" r="4.5" fill="#d55e00"/>')
    expect(recall).toContain('<line x1="390" y1="76" x2="550" y2="76" stroke="#d55e00" stroke-width="2"/>')
    expect(recall).toContain('<line x1="390" y1="71" x2="390" y2="81" stroke="#d55e00" stroke-width="2"/>')
    // The baseline 0.8 at x 510, a diamond of half-width 5.5.
    expect(recall).toContain('<path d="M510 70.5 L515.5 76 L510 81.5 L504.5 76 Z"')
    expect(recall).toContain('>recall &lt;ctx&gt;</text>')
    expect(recall).toContain('>0.75 [0.5, 0.9] · baseline 0.8 · regressed</text>')
    const mrr = group(svg, 'metric', 'mrr')
    expect(mrr).toContain('<circle cx="290" cy="102" r="4.5" fill="#0072b2"/>')
    expect(mrr).not.toContain('<path')
    expect(mrr).not.toContain('<line')
  })
  it('sizes the chart to its rows: the axis under the last row, 32 px for its labels', () => {
    // bottom = 76 + 2 * 26 - 13 = 115; height 147.
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="900" height="147" viewBox="0 0 900 147"/)
    expect(svg).toContain('<line x1="590" y1="63" x2="590" y2="115" stroke="#d0d7de"/>')
    expect(svg).toContain('<title id="title">Gated metrics: this run vs the baseline</title>')
  })
  it('prints n/a for a metric the run has not and keeps values outside 0..1 on the axis', () => {
    expect(describeRow({ ...rows[1]!, current: null, baseline: 0.5, status: 'not-comparable' })).toBe(
      'n/a · baseline 0.5 · not-comparable',
    )
    const clamped = metricIntervalsChart([{ ...rows[1]!, current: 1.2 }])
    expect(group(clamped, 'metric', 'mrr')).toContain('<circle cx="590" cy="76"')
  })
})

describe('diagnosisChart', () => {
  const dot = (id: string, x: number, y: number | null, diagnosis: DiagnosisDot['diagnosis']): DiagnosisDot => ({
    id,
    type: 'single',
    question: `question ${id}`,
    x,
    y,
    diagnosis,
  })

  it('puts a question at x = 70 + 320 * recall, y = 60 + 320 * (1 - faithfulness), a refusal on the band at 424', () => {
    const svg = diagnosisChart([
      dot('q-1', 0.5, 0.25, 'both broken'),
      dot('q-2', 1, null, 'model ignores context'),
      dot('q-3', 1, 1, 'healthy'),
    ])
    expect(svg).toContain('<circle cx="230" cy="300" r="3.5" fill="#d55e00" fill-opacity="0.8" data-id="q-1">')
    expect(svg).toContain('<circle cx="390" cy="424" r="3.5" fill="#e69f00" fill-opacity="0.8" data-id="q-2">')
    expect(svg).toContain('<circle cx="390" cy="60" r="3.5" fill="#009e73" fill-opacity="0.8" data-id="q-3">')
    expect(svg).toContain('<title>q-1 [single] question q-1: recall 0.5, faithfulness 0.25, both broken</title>')
    expect(svg).toContain('<title>q-2 [single] question q-2: recall 1, refused, model ignores context</title>')
    // The diagnosis threshold 0.8 at y = 60 + 320 * 0.2 = 124.
    expect(svg).toContain('<line x1="70" y1="124" x2="390" y2="124" stroke="#656d76" stroke-dasharray="4 3"/>')
    expect(svg).toContain('>healthy: 1</text>')
    expect(svg).toContain('>both broken: 1</text>')
    expect(svg).toContain('>retrieval misses: 0</text>')
    expect(svg).toContain('Diagnosis: recall x faithfulness (3 answerable questions)')
  })
  it('spreads questions on the same point along a sunflower spiral, the first in place', () => {
    expect(spread(0)).toEqual({ dx: 0, dy: 0 })
    // k = 1: radius 3.4, angle 2.39996 rad (the golden angle).
    expect(spread(1).dx).toBeCloseTo(3.4 * Math.cos(2.399963229728653), 10)
    expect(Math.hypot(spread(4).dx, spread(4).dy)).toBeCloseTo(6.8, 10)
    const svg = diagnosisChart([dot('q-1', 1, 1, 'healthy'), dot('q-2', 1, 1, 'healthy')])
    expect(svg).toContain('<circle cx="390" cy="60" r="3.5" fill="#009e73" fill-opacity="0.8" data-id="q-1">')
    expect(svg).toContain(
      `<circle cx="${px(390 + 3.4 * Math.cos(2.399963229728653))}" cy="${px(60 + 3.4 * Math.sin(2.399963229728653))}" r="3.5" fill="#009e73" fill-opacity="0.8" data-id="q-2">`,
    )
  })
})

describe('latencyChart', () => {
  // 0, 5, ..., 100th percentiles: 0.1 ms to 100 ms, the median 1 ms, the 95th 10 ms.
  const percentiles = Array.from({ length: 21 }, (_, i) =>
    i === 0 ? 0.1 : i === 20 ? 100 : i === 19 ? 10 : i <= 10 ? 1 - (10 - i) * 0.05 : 1 + (i - 10) * 0.5,
  )

  it('spans the powers of ten around the times', () => {
    expect(latencyDomain([{ label: 'judge', percentiles }])).toEqual([0.1, 100])
    expect(latencyDomain([{ label: 'judge', percentiles: Array(21).fill(3) }])).toEqual([1, 10])
    expect(latencyDomain([])).toEqual([0.01, 1])
  })
  it('draws the median, the 5th to 95th whiskers and the extremes on a log axis: x = 150 + (log10 ms + 1) / 3 * 480', () => {
    const svg = latencyChart([{ label: 'judge', percentiles }])
    const judge = group(svg, 'stage', 'judge')
    // The median 1 ms: log10 = 0, a third of the axis: x = 150 + 160 = 310.
    expect(judge).toContain('<line x1="310" y1="74" x2="310" y2="94" stroke="#cc79a7" stroke-width="2.5"/>')
    // The 95th, 10 ms: x = 150 + 320 = 470; the slowest, 100 ms, at the right end (630); the fastest, 0.1 ms, at the left (150).
    expect(judge).toContain('<line x1="470" y1="78" x2="470" y2="90" stroke="#cc79a7" stroke-width="1.5"/>')
    expect(judge).toContain('<circle cx="630" cy="84" r="2.5" fill="#cc79a7"/>')
    expect(judge).toContain('<circle cx="150" cy="84" r="2.5" fill="#cc79a7"/>')
    expect(judge).toContain('>p50 1 ms · p95 10 ms · max 100 ms</text>')
    for (const tick of ['0.1 ms', '1 ms', '10 ms', '100 ms']) expect(svg).toContain(`>${tick}</text>`)
  })
  it('prints times in ms below a second and in s from it', () => {
    expect(formatMs(0.0502)).toBe('0.05 ms')
    expect(formatMs(3.8451)).toBe('3.8 ms')
    expect(formatMs(1234)).toBe('1.2 s')
  })
})

describe('comparison charts', () => {
  const metric = (
    name: string,
    delta: number | null,
    low: number,
    high: number,
    verdict: ComparedMetric['verdict'],
  ): ComparedMetric => ({
    name,
    label: name,
    a: 0.8,
    b: delta === null ? null : 0.8 + delta,
    delta,
    deltaInterval: delta === null ? null : { low, high },
    pValue: 0.0312,
    verdict,
  })

  it('takes the smallest round half-width that holds every delta and interval', () => {
    expect(deltaExtent([metric('recall', -0.03, -0.07, 0.01, 'worse')])).toBe(0.1)
    expect(deltaExtent([metric('recall', 0.004, -0.002, 0.009, 'no-difference')])).toBe(0.01)
    expect(deltaExtent([])).toBe(0.01)
  })
  it('draws B - A at x = 440 + delta / extent * 200 with its interval, and leaves out a metric without pairs', () => {
    const svg = deltaChart([
      metric('recall', -0.03, -0.07, 0.01, 'worse'),
      metric('mrr', null, 0, 0, null),
      metric('ndcg10', 0.05, 0.02, 0.08, 'better'),
    ])
    const recall = group(svg, 'metric', 'recall')
    // extent 0.1: -0.03 -> 440 - 60 = 380; interval -0.07 -> 300, 0.01 -> 460.
    expect(recall).toContain('<circle cx="380" cy="76" r="4.5" fill="#d55e00"/>')
    expect(recall).toContain('<line x1="300" y1="76" x2="460" y2="76" stroke="#d55e00" stroke-width="2"/>')
    expect(recall).toContain('>A 0.8 → B 0.77 (-0.03, p 0.031)</text>')
    expect(svg).not.toContain('data-metric="mrr"')
    // The second drawn row, at 102: 0.05 -> 540.
    expect(group(svg, 'metric', 'ndcg10')).toContain('<circle cx="540" cy="102" r="4.5" fill="#009e73"/>')
  })
  it('lists each flipped question once, by id in numeric order, with ▼ / ▲ in its metric’s column', () => {
    const svg = flipChart([
      { metric: 'recall', label: 'recall', worse: [{ id: 'q-10', type: 'multi' }], better: [{ id: 'q-2', type: 'single' }] },
      { metric: 'refusalRate', label: 'refusal', worse: [], better: [{ id: 'q-10', type: 'multi' }] },
    ])
    expect(svg).toContain('2 questions flipped: 1 worse in B (▼), 2 better in B (▲)')
    // q-2 first (row 96), q-10 second (row 116); recall's column at 260, refusal's at 390.
    expect(svg.indexOf('>q-2 [single]</text>')).toBeLessThan(svg.indexOf('>q-10 [multi]</text>'))
    expect(svg).toContain('<polygon points="240 90 246 100.2 234 100.2" fill="#009e73">')
    expect(svg).toContain('<polygon points="240 122 246 111.8 234 111.8" fill="#d55e00">')
    expect(svg).toContain('<polygon points="430 110 436 120.2 424 120.2" fill="#009e73">')
  })
  it('caps the rows at 60 and says how many more compare.md lists', () => {
    const worse = Array.from({ length: 65 }, (_, i) => ({ id: `q-${i + 1}`, type: 'single' }))
    const svg = flipChart([{ metric: 'recall', label: 'recall', worse, better: [] }])
    expect(svg).toContain('>q-60 [single]</text>')
    expect(svg).not.toContain('>q-61 [single]</text>')
    expect(svg).toContain('>and 5 more (compare.md lists every one)</text>')
  })
})

describe('evidenceImage', () => {
  it('keeps every line of the evidence, in order, with its spaces (no-break: no renderer collapses them), one line per 16 px', () => {
    const evidence = 'question   q-014 [single] Which port?\ncontext    120 tokens:\n  doc-b#0  120 tokens'
    const svg = evidenceImage(evidence, 'q-014: evidence')
    const nbsp = (line: string) => line.replaceAll(' ', '\u00a0')
    expect(svg).toContain(`<text x="16" y="52">${nbsp('question   q-014 [single] Which port?')}</text>`)
    expect(svg).toContain(`<text x="16" y="68">${nbsp('context    120 tokens:')}</text>`)
    expect(svg).toContain(`<text x="16" y="84">${nbsp('  doc-b#0  120 tokens')}</text>`)
    // 3 lines: 52 + 3 * 16 = 100 high; the longest line (37 characters) is under the 40-character minimum: 32 + 40 * 7.3 = 324 wide.
    expect(svg).toMatch(/^<svg [^>]* width="324" height="100"/)
  })
  it('wraps a long line at a space, indenting what follows', () => {
    expect(wrapLine('answer     one two three', 16)).toEqual(['answer     one', '  two three'])
    expect(wrapLine('x'.repeat(10), 4)).toEqual(['xxxx', '  xx', '  xx', '  xx'])
  })
})
