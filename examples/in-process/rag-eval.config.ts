import { defineConfig } from 'rag-vitest-eval/config'

export default defineConfig({
  corpus: 'corpus',
  goldenSet: 'evals/golden-set.json',
  baseline: 'baseline',
  // The system under test, in process: src/rag.ts's default export (a factory building the index).
  system: './src/rag.ts',
  budgetTokens: 300,
  tolerance: 0.01,
})
