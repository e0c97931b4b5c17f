import { COLOURS, escapeXml, px, svgDocument, MONO } from './svg.ts'

/** Geometry for the tests: line i's baseline at TOP + i * LINE_HEIGHT; a character is CHAR_WIDTH wide (12px monospace). */
export const EVIDENCE_IMAGE = { LEFT: 16, TOP: 52, LINE_HEIGHT: 16, CHAR_WIDTH: 7.3, MAX_CHARS: 120 } as const

/** Splits a line longer than `width` characters at spaces (a word longer than a line is cut), indenting continuations. */
export function wrapLine(line: string, width: number): string[] {
  if (line.length <= width) return [line]
  const indent = ' '.repeat(Math.min(line.length - line.trimStart().length + 2, 12))
  const out: string[] = []
  let rest = line
  while (rest.length > width) {
    const cut = rest.lastIndexOf(' ', width)
    const at = cut > indent.length ? cut : width
    out.push(rest.slice(0, at))
    rest = indent + rest.slice(at).trimStart()
  }
  out.push(rest)
  return out
}

/**
 * A question's evidence as an image: Vitest UI runs an annotation's message into one paragraph, but shows an image
 * attachment as it is, so the evidence keeps its lines and columns.
 */
export function evidenceImage(evidence: string, title: string): string {
  const { LEFT, TOP, LINE_HEIGHT, CHAR_WIDTH, MAX_CHARS } = EVIDENCE_IMAGE
  const lines = evidence.split('\n').flatMap((l) => wrapLine(l, MAX_CHARS))
  const longest = Math.max(40, ...lines.map((l) => l.length))
  const body = [
    `<g ${MONO} fill="${COLOURS.ink}">`,
    // No-break spaces: renderers collapse runs of spaces in SVG text (Chromium ignores xml:space), the columns need them.
    ...lines.map((l, i) => `<text x="${LEFT}" y="${px(TOP + i * LINE_HEIGHT)}">${escapeXml(l).replaceAll(' ', '\u00a0')}</text>`),
    '</g>',
  ]
  return svgDocument(
    {
      width: Math.ceil(LEFT * 2 + longest * CHAR_WIDTH),
      height: TOP + lines.length * LINE_HEIGHT,
      title,
      description: evidence,
    },
    body,
  )
}
