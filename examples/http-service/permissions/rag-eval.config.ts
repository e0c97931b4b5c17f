import { defineConfig } from 'rag-vitest-eval/config'

// The same service over documents of two tenants (acme, globex) and shared ones: RAG_EVAL_CONFIG=permissions/rag-eval.config.ts.
// access.json says who may read what; every question with a userContext is checked against it.
export default defineConfig({
  corpus: 'corpus',
  goldenSet: 'golden-set.json',
  baseline: 'baseline',
  access: 'access.json',
  system: {
    http: {
      url: 'http://127.0.0.1:8766/rag',
      command: 'python3 ../service.py',
      env: { PORT: '8766', CORPUS_DIR: 'corpus' },
      timeoutMs: 15000,
    },
  },
  budgetTokens: 400,
})
