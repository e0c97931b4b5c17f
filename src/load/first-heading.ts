/** An ATX level-1 heading (CommonMark: up to 3 spaces before `#`, an optional closing run of `#`). */
const H1 = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Text of the first `# Heading` outside fenced code blocks, or undefined; Setext headings are not recognised. */
export function firstHeading(markdown: string): string | undefined {
  let fence: string | undefined
  for (const line of markdown.split(/\r?\n/)) {
    const marker = FENCE.exec(line)?.[1]
    if (fence !== undefined) {
      // A fence closes with a run of the same character at least as long as the one that opened it.
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = undefined
      continue
    }
    if (marker !== undefined) {
      fence = marker
      continue
    }
    const title = H1.exec(line)?.[1]?.trim()
    if (title) return title
  }
  return undefined
}
