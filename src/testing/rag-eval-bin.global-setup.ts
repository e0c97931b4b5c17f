// The unit tests (both projects) run the rag-eval commands in-process (src/cli/testing/rag-eval-in-process.ts) and spawn
// the bin itself once or so per command: each spawn runs it from one bundle of the sources (rag-eval-bin.ts), built
// here once before the tests and again before each rerun in watch mode (an edit is a new bundle), with the
// threads' bundles, so the evaluations those spawns start load them too.
import type { TestProject } from 'vitest/node'
import { builtSourceBundle, cacheThreadBundles, sourceBundle } from '../threads/thread-bundle.ts'
import { RAG_EVAL_BIN_SOURCE } from './rag-eval-bin.ts'

async function bundleSources(): Promise<void> {
  await Promise.all([sourceBundle(RAG_EVAL_BIN_SOURCE).building, cacheThreadBundles()])
  // Not a failure: the tests then run the bin through tsx, slower, and the spawn shows what is wrong with the sources.
  if (builtSourceBundle(RAG_EVAL_BIN_SOURCE) === null)
    console.warn('rag-eval-bin: the bin could not be bundled; the tests run it through tsx')
}

export default async function setup(project: TestProject): Promise<void> {
  await bundleSources()
  project.onTestsRerun(bundleSources)
}
