/**
 * The context the model receives: the longest prefix of the ranking within the token budget (a smaller chunk
 * further down is not pulled forward); empty when the first chunk exceeds it.
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
