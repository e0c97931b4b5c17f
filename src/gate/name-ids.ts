/** Question ids as one list for a message: the first `max`, then how many more (`q-1, q-2 and 8 more`). */
export function nameIds(ids: readonly string[], max = 10): string {
  return ids.length > max ? `${ids.slice(0, max).join(', ')} and ${ids.length - max} more` : ids.join(', ')
}
