/**
 * rag-vitest-eval/vitest: the Vitest side of the package, for vitest.config.ts. `ragEval()` is the
 * evaluation's Vitest project (cases, matchers, global setup, reporter). It imports nothing heavy: Vite
 * bundles a config file with what it imports. The matchers, for your own tests, are `rag-vitest-eval/matchers`.
 *
 *     // vitest.config.ts
 *     import { defineConfig } from 'vitest/config'
 *     import { ragEval } from 'rag-vitest-eval/vitest'
 *     export default defineConfig({ test: { projects: [ragEval()] } })
 */
export { ragEval, type RagEvalOptions } from './rag-eval-project.ts'
