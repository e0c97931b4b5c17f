// The package's `rag-vitest-eval/config` entry (like `vitest/config`): what a rag-eval.config.ts imports.
// Nothing here is imported at run time but this file, so loading a config file does not load the library.
import type { RagEvalConfig } from './project-config.ts'

export type { RagEvalConfig, SystemSpec } from './project-config.ts'
export type { RetrieverOptions } from '../contract/retriever-options.ts'

/** Typed identity for rag-eval.config.ts: editors complete and check the fields; validation happens on load. */
export function defineConfig(config: RagEvalConfig): RagEvalConfig {
  return config
}
