/**
 * rag-vitest-eval/vitest: the Vitest side of the package. `ragEval()` is the evaluation's Vitest project
 * (cases, matchers, global setup, reporter); the matchers are exported for your own tests too.
 *
 *     // vitest.config.ts
 *     import { defineConfig } from 'vitest/config'
 *     import { ragEval } from 'rag-vitest-eval/vitest'
 *     export default defineConfig({ test: { projects: [ragEval()] } })
 */
export { ragEval, type RagEvalOptions } from './rag-eval-project.ts'
export { ragMatchers } from './matchers/index.ts'
