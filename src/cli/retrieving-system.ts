import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { closeSystem } from '../system/close-system.ts'
import type { RagSystem } from '../system/rag-system.ts'
import type { CommandContext } from './args.ts'
import type { ProjectConfig } from '../config/project-config.ts'

/**
 * Runs `use` with the configured system, retrieving only (golden verify and golden review show what it finds),
 * then closes it; a failing close is a warning. The evaluation's code is imported only when a command needs it.
 */
export async function withRetrievingSystem<T>(
  project: ProjectConfig,
  config: EvalConfig,
  docs: readonly CorpusDocument[],
  context: CommandContext,
  use: (system: RagSystem) => Promise<T>,
): Promise<T> {
  const { openSystem } = await import('../run/open-system.ts')
  const system = await openSystem(project.system, {
    corpus: docs,
    config,
    generate: false,
    root: project.root,
    log: (line) => console.error(line),
  })
  try {
    return await use(system)
  } finally {
    const failure = await closeSystem(system)
    if (failure !== null) context.err(`warning: ${failure}\n`)
  }
}
