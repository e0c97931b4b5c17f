/**
 * rag-vitest-eval/vitest, for vitest.config.ts. It imports nothing heavy: Vite bundles a config file with its imports.
 *
 *     // vitest.config.ts
 *     import { defineConfig } from 'vitest/config'
 *     import { ragEval } from 'rag-vitest-eval/vitest'
 *     export default defineConfig({ test: { projects: [ragEval()] } })
 */
export { ragEval, type RagEvalOptions } from './rag-eval-project.ts'
