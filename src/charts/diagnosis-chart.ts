import { DIAGNOSES, DIAGNOSIS_NAME, type Diagnosis } from '../contract/diagnoses.ts'
import { FAITHFULNESS, RECALL } from '../contract/metrics/metric-table.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { FAITHFUL_THRESHOLD } from '../scoring/generation/diagnosis.ts'
import { COLOURS, escapeXml, formatValue, line, linearScale, px, svgDocument, text } from './svg.ts'

/** One answerable question on the recall x faithfulness plane. */
export interface DiagnosisDot {
  id: string
  type: string
  question: string
  /** Across: the share of the answer documents in the context (RAGAS's id-based context recall; the hit as 0/1 where undefined). */
  x: number
  /** Up: the answer's faithfulness; null: the model refused (drawn in the band under the plot). */
  y: number | null
  diagnosis: Diagnosis
}

/** The answerable questions the run diagnosed (a none question, or one without a decidable verdict, has no diagnosis). */
export function diagnosisDots(questions: readonly QuestionOutcome[]): DiagnosisDot[] {
  return questions.flatMap((q) =>
    q.diagnosis === null
      ? []
      : [
          {
            id: q.id,
            type: q.type,
            question: q.question,
            x: q.idBasedContextRecall ?? (q.hit ? 1 : 0),
            y: q.refused ? null : FAITHFULNESS.value(q),
            diagnosis: q.diagnosis,
          },
        ],
  )
}

/** Geometry for the tests: x = LEFT + recall * SIZE, y = TOP + (1 - faithfulness) * SIZE; refusals at REFUSED_Y. */
export const DIAGNOSIS_CHART = { LEFT: 70, TOP: 60, SIZE: 320, REFUSED_Y: 60 + 320 + 44, WIDTH: 860 } as const

export const DIAGNOSIS_COLOURS: Record<Diagnosis, string> = {
  healthy: COLOURS.better,
  'model ignores context': COLOURS.amber,
  'retrieval misses': COLOURS.current,
  'both broken': COLOURS.worse,
}

const WHERE_TO_LOOK: Record<Diagnosis, string> = {
  healthy: 'nothing to fix',
  'model ignores context': 'the answer: prompt, model, refusal threshold',
  'retrieval misses': 'retrieval: chunking, ranking, context budget',
  'both broken': 'retrieval first, then the answer',
}

/** The k-th offset of questions sharing a point, on a sunflower spiral: a pile reads as a pile, the first stays put. */
export function spread(k: number): { dx: number; dy: number } {
  if (k === 0) return { dx: 0, dy: 0 }
  const angle = k * 2.399963229728653
  const radius = 3.4 * Math.sqrt(k)
  return { dx: radius * Math.cos(angle), dy: radius * Math.sin(angle) }
}

/** The recall x faithfulness diagnosis, a dot per answerable question coloured by its cell (docs/charts.md). */
export function diagnosisChart(dots: readonly DiagnosisDot[]): string {
  const { LEFT, TOP, SIZE, REFUSED_Y, WIDTH } = DIAGNOSIS_CHART
  const x = linearScale([0, 1], [LEFT, LEFT + SIZE])
  const y = linearScale([0, 1], [TOP + SIZE, TOP])
  const body: string[] = [`<rect x="${LEFT}" y="${TOP}" width="${SIZE}" height="${SIZE}" fill="none" stroke="${COLOURS.grid}"/>`]
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    body.push(line(x(tick), TOP + SIZE, x(tick), TOP + SIZE + 4, COLOURS.muted))
    body.push(text(x(tick), TOP + SIZE + 16, String(tick), { anchor: 'middle', fill: COLOURS.muted }))
    body.push(line(LEFT - 4, y(tick), LEFT, y(tick), COLOURS.muted))
    body.push(text(LEFT - 8, y(tick) + 4, String(tick), { anchor: 'end', fill: COLOURS.muted }))
  }
  body.push(
    line(LEFT, y(FAITHFUL_THRESHOLD), LEFT + SIZE, y(FAITHFUL_THRESHOLD), COLOURS.muted, 'stroke-dasharray="4 3"'),
    text(LEFT + SIZE - 4, y(FAITHFUL_THRESHOLD) - 4, `faithful from ${FAITHFUL_THRESHOLD}`, {
      anchor: 'end',
      fill: COLOURS.muted,
      size: 11,
    }),
    text(LEFT + SIZE / 2, TOP + SIZE + 84, `context ${RECALL.name} (share of the answer documents in the context)`, {
      anchor: 'middle',
      fill: COLOURS.muted,
    }),
    `<text transform="translate(22 ${px(TOP + SIZE / 2)}) rotate(-90)" text-anchor="middle" fill="${COLOURS.muted}">${FAITHFULNESS.name}</text>`,
    text(LEFT - 8, REFUSED_Y + 4, 'refused', { anchor: 'end', fill: COLOURS.muted }),
    line(LEFT, REFUSED_Y, LEFT + SIZE, REFUSED_Y, COLOURS.grid, 'stroke-dasharray="2 3"'),
  )
  const taken = new Map<string, number>()
  for (const dot of dots) {
    const cx = x(dot.x)
    const cy = dot.y === null ? REFUSED_Y : y(dot.y)
    const key = `${px(cx)},${px(cy)}`
    const k = taken.get(key) ?? 0
    taken.set(key, k + 1)
    const { dx, dy } = spread(k)
    const up = dot.y === null ? 'refused' : `${FAITHFULNESS.name} ${formatValue(dot.y)}`
    body.push(
      `<circle cx="${px(cx + dx)}" cy="${px(cy + dy)}" r="3.5" fill="${DIAGNOSIS_COLOURS[dot.diagnosis]}" fill-opacity="0.8" data-id="${escapeXml(dot.id)}">` +
        `<title>${escapeXml(`${dot.id} [${dot.type}] ${dot.question}: ${RECALL.name} ${formatValue(dot.x)}, ${up}, ${dot.diagnosis}`)}</title></circle>`,
    )
  }
  // The legend: each cell's count and where to look.
  const legendX = LEFT + SIZE + 64
  DIAGNOSES.forEach((diagnosis, i) => {
    const count = dots.filter((d) => d.diagnosis === diagnosis).length
    const ly = TOP + 8 + i * 40
    body.push(`<circle cx="${legendX}" cy="${ly}" r="5" fill="${DIAGNOSIS_COLOURS[diagnosis]}"/>`)
    body.push(text(legendX + 12, ly + 4, `${diagnosis}: ${count}`, { weight: 600 }))
    body.push(text(legendX + 12, ly + 20, `look at ${WHERE_TO_LOOK[diagnosis]}`, { fill: COLOURS.muted, size: 11 }))
  })
  if (dots.length === 0)
    body.push(
      text(LEFT + SIZE / 2, TOP + SIZE / 2, 'no answer was diagnosed in this run', { anchor: 'middle', fill: COLOURS.muted }),
    )
  return svgDocument(
    {
      width: WIDTH,
      height: TOP + SIZE + 100,
      title: `Diagnosis: ${DIAGNOSIS_NAME} (${dots.length} answerable questions)`,
      description: `One dot per answerable question: context ${RECALL.name} across, ${FAITHFULNESS.name} up, refusals in the band below; the colour is its diagnosis.`,
    },
    body,
  )
}
