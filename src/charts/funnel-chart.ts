import type { Summary } from '../contract/report-schema.ts'
import { COLOURS, px, svgDocument, text } from './svg.ts'

/** One step of the loss funnel as the reports show it: what happened to how many answer documents. */
export interface FunnelStep {
  label: string
  count: number
  colour: string
}

/** The funnel's steps in pipeline order (each stage's cuts apart; "no answer judged" only when some were). */
export function funnelSteps(funnel: NonNullable<Summary['funnel']>): FunnelStep[] {
  return [
    { label: 'never retrieved', count: funnel['never-retrieved'], colour: COLOURS.worse },
    ...Object.entries(funnel.byStage).map(([stage, count]) => ({ label: `cut by ${stage}`, count, colour: COLOURS.worse })),
    { label: 'cut by the context budget', count: funnel.budget, colour: COLOURS.amber },
    { label: 'in the context, unused by the answer', count: funnel.unused, colour: COLOURS.purple },
    { label: 'used but misstated', count: funnel.misstated, colour: COLOURS.purple },
    ...(funnel['in-context'] > 0
      ? [{ label: 'in the context (no answer judged)', count: funnel['in-context'], colour: COLOURS.neutral }]
      : []),
    { label: 'survived', count: funnel.survived, colour: COLOURS.better },
  ]
}

const LEFT = 260
const BAR = 420
const ROW = 26

/** funnel.svg: the answer documents by where they were lost, a bar each, out of all of them (docs/charts.md). */
export function funnelChart(funnel: NonNullable<Summary['funnel']>): string {
  const steps = funnelSteps(funnel)
  const body = [text(16, 46, `${funnel.documents} answer documents of the answerable questions`, { fill: COLOURS.muted })]
  steps.forEach((step, i) => {
    const y = 70 + i * ROW
    const width = funnel.documents === 0 ? 0 : (step.count / funnel.documents) * BAR
    body.push(
      text(LEFT - 10, y + 4, step.label, { anchor: 'end' }),
      `<rect x="${LEFT}" y="${px(y - 8)}" width="${px(width)}" height="16" fill="${step.colour}"/>`,
      text(LEFT + width + 8, y + 4, String(step.count), { fill: COLOURS.muted }),
    )
  })
  return svgDocument(
    {
      width: LEFT + BAR + 80,
      height: 70 + steps.length * ROW + 10,
      title: 'Loss funnel: where the answer documents were lost',
      description: 'Each answer document counted once, at the first step that lost it, or as survived.',
    },
    body,
  )
}
