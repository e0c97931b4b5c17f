/**
 * The SVG pieces every chart shares, hand-written: a charting library (and its DOM shim under Node) would cost more
 * than a few dozen shapes, and plain strings keep the output byte-stable and diffable.
 */
import { CONTROL_CHARACTERS } from '../contract/golden-set-schema.ts'

/**
 * Text and attribute values made safe for XML (question ids, labels and answers come from users' files): control
 * characters XML cannot hold even escaped (a form feed from a PDF) become spaces.
 */
export function escapeXml(text: string): string {
  return text
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** A coordinate or length with at most two decimals and no trailing zeros ("12.5", not "12.500000001"). */
export function px(value: number): string {
  const rounded = Math.round(value * 100) / 100
  return String(Object.is(rounded, -0) ? 0 : rounded)
}

/** Maps [domain0, domain1] linearly onto [range0, range1]. */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain
  const [r0, r1] = range
  const span = d1 - d0
  return (value) => (span === 0 ? (r0 + r1) / 2 : r0 + ((value - d0) / span) * (r1 - r0))
}

export const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"'
export const MONO = 'font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"'

/** The palette: colour-blind-safe (Okabe-Ito) hues, one meaning each across the charts. */
export const COLOURS = {
  ink: '#1f2328',
  muted: '#656d76',
  grid: '#d0d7de',
  current: '#0072b2',
  baseline: '#1f2328',
  worse: '#d55e00',
  better: '#009e73',
  neutral: '#999999',
  amber: '#e69f00',
  purple: '#cc79a7',
} as const

export interface SvgFrame {
  width: number
  height: number
  /** The chart's accessible name, also shown as its heading. */
  title: string
  /** One sentence saying how to read it (screen readers, and a tooltip on hover). */
  description: string
}

/** A standalone SVG document (renders as an image on GitHub, in a CI artifact and in Vitest UI) around `body`. */
export function svgDocument(frame: SvgFrame, body: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(frame.width)}" height="${px(frame.height)}" ` +
      `viewBox="0 0 ${px(frame.width)} ${px(frame.height)}" role="img" aria-labelledby="title desc" ${FONT} font-size="12">`,
    `<title id="title">${escapeXml(frame.title)}</title>`,
    `<desc id="desc">${escapeXml(frame.description)}</desc>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="15" font-weight="600" fill="${COLOURS.ink}">${escapeXml(frame.title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n')
}

/** A text element; `anchor` is SVG's text-anchor. */
export function text(
  x: number,
  y: number,
  content: string,
  options: { anchor?: 'start' | 'middle' | 'end'; fill?: string; size?: number; weight?: number; mono?: boolean } = {},
): string {
  const attributes = [
    `x="${px(x)}"`,
    `y="${px(y)}"`,
    ...(options.anchor && options.anchor !== 'start' ? [`text-anchor="${options.anchor}"`] : []),
    `fill="${options.fill ?? COLOURS.ink}"`,
    ...(options.size ? [`font-size="${options.size}"`] : []),
    ...(options.weight ? [`font-weight="${options.weight}"`] : []),
    ...(options.mono ? [MONO, 'xml:space="preserve"'] : []),
  ]
  return `<text ${attributes.join(' ')}>${escapeXml(content)}</text>`
}

export function line(x1: number, y1: number, x2: number, y2: number, stroke: string, extra = ''): string {
  return `<line x1="${px(x1)}" y1="${px(y1)}" x2="${px(x2)}" y2="${px(y2)}" stroke="${stroke}"${extra ? ` ${extra}` : ''}/>`
}

/** A metric value as the reports print it: up to 3 decimals. */
export function formatValue(value: number): string {
  return String(Math.round(value * 1000) / 1000)
}
