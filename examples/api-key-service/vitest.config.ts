import { defineConfig } from 'vitest/config'
import { ragEval } from 'rag-vitest-eval/vitest'

export default defineConfig({
  test: { projects: [ragEval()] },
})
