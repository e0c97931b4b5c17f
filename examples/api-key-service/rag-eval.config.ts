import { defineConfig } from 'rag-vitest-eval/config'

export default defineConfig({
  corpus: 'corpus',
  goldenSet: 'evals/golden-set.json',
  baseline: 'baseline',
  system: {
    http: {
      url: 'http://127.0.0.1:8766/rag',
      // Read from the environment when the run starts (a missing variable stops the run before any request);
      // the resolved value is a secret: no report, cache, log or Vitest message holds it.
      headers: { Authorization: 'Bearer ${env:RAG_API_KEY}' },
      command: 'node service.mjs',
      env: { PORT: '8766' },
    },
  },
  budgetTokens: 400,
})
