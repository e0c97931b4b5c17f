import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import type { projectWith } from './cli-project.ts'

type Project = Awaited<ReturnType<typeof projectWith>>
type RagSystem = Awaited<ReturnType<typeof import('../run/open-system.ts').openSystem>>

/**
 * The configured system, retrieving only (golden verify and golden review show what it finds): the built-in one
 * over the corpus, or the user's module or service. The evaluation's code is imported only when a command needs it.
 */
export async function openRetrievingSystem(
  project: Project,
  config: EvalConfig,
  docs: readonly CorpusDocument[],
): Promise<RagSystem> {
  const { openSystem } = await import('../run/open-system.ts')
  return openSystem(project.system, {
    corpus: docs,
    config,
    generate: false,
    root: project.root,
    log: (line) => console.error(line),
  })
}
