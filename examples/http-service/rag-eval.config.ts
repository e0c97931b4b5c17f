import { defineConfig } from 'rag-vitest-eval/config'

export default defineConfig({
  corpus: 'corpus',
  goldenSet: 'evals/golden-set.json',
  baseline: 'baseline',
  // The system under test is a Python service: the suite starts it, waits until it answers, POSTs each
  // question to the url, and stops it (and its children) when the run ends.
  system: {
    http: {
      url: 'http://127.0.0.1:8765/rag',
      command: 'python3 service.py',
      env: { PORT: '8765' },
      timeoutMs: 15000,
    },
  },
  budgetTokens: 400,
  concurrency: 4,
})
