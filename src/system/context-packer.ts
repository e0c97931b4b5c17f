/**
 * Packs the context the model receives: chunks in rank order until the next one would exceed the
 * token budget, then stop (a smaller chunk further down is not pulled forward: the context stays a
 * prefix of the ranking). A budget smaller than the first chunk gives an empty context.
 */
export function packContext<T extends { tokens: number }>(ranked: readonly T[], budgetTokens: number): T[] {
  const context: T[] = []
  let used = 0
  for (const chunk of ranked) {
    if (used + chunk.tokens > budgetTokens) break
    context.push(chunk)
    used += chunk.tokens
  }
  return context
}
