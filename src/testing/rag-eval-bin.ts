import { fileURLToPath } from 'node:url'
import { builtSourceBundle } from '../threads/thread-bundle.ts'

const BIN = fileURLToPath(new URL('../cli/rag-eval.ts', import.meta.url))

/**
 * The arguments of `node` that run `rag-eval <args>` from this repository's sources as they are now: their
 * bundle, which the unit projects' global setup builds (rag-eval-bin.global-setup.ts), else the sources through
 * tsx (a run without that setup, a bundle that failed to build). A spawn from the bundle costs about 0.6 s of
 * CPU less than tsx's transform of ~200 modules, and a bundle of other sources is never used (its folder is
 * named by their state: every file's path, size and time).
 */
export function ragEvalArgv(args: readonly string[]): string[] {
  const bundle = builtSourceBundle(BIN)
  return bundle === null ? ['--import', 'tsx', BIN, ...args] : [bundle, ...args]
}

/** The bin's entry module, for the global setup that bundles it. */
export const RAG_EVAL_BIN_SOURCE = BIN
