/** `[n]`, `[1, 3]`: an answer's citation marker (the n-th context chunk, 1-based) and the whitespace before it. */
export const CITATION_MARKER = /\s*\[(\d+(?:\s*,\s*\d+)*)\]/g

/**
 * The answer as it is judged and labelled: without its `[n]` markers, so citing changes no other metric and no
 * person's label of the answer.
 */
export function stripCitationMarkers(answer: string): string {
  return answer.replace(CITATION_MARKER, '')
}
