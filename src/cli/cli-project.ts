import { findConfigFile } from '../config/config-file.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { loadCorpusFrom, type CorpusDocument } from '../load/corpus.ts'
import { CorpusSpecSchema } from '../load/corpus-spec.ts'
import { InputError } from '../contract/input-error.ts'
import type { Io } from './run-cli.ts'

/** Path flags a command may put over the project's config: relative to the current folder, kept as given for messages. */
interface ProjectFlags {
  corpus?: string | undefined
  golden?: string | undefined
  labels?: string | undefined
}

/**
 * The command's project: the config (--config, else RAG_EVAL_CONFIG, else its folder's) with --corpus, --golden and
 * --labels over it.
 */
export async function projectWith(
  configFile: string | undefined,
  io: Pick<Io, 'env' | 'cwd'>,
  flags: ProjectFlags = {},
): Promise<ProjectConfig> {
  const project = await loadProjectConfig({ configFile, env: io.env, cwd: io.cwd })
  return {
    ...project,
    // A --corpus folder keeps the config's include/exclude globs (the defaults when the config has no corpus).
    corpus:
      flags.corpus === undefined
        ? project.corpus
        : { ...(project.corpus ?? CorpusSpecSchema.parse(flags.corpus)), dir: flags.corpus },
    goldenSet: flags.golden === undefined ? project.goldenSet : flags.golden,
    humanLabels: flags.labels === undefined ? project.humanLabels : flags.labels,
  }
}

/**
 * The corpus and golden set of a command that runs without a config too (golden import, export): the config's when
 * there is one, else corpus/ and evals/golden-set.json; the flags over either.
 */
export async function projectOrDefaults(
  configFile: string | undefined,
  io: Pick<Io, 'env' | 'cwd'>,
  flags: ProjectFlags,
): Promise<Pick<ProjectConfig, 'corpus' | 'goldenSet' | 'source'>> {
  if (findConfigFile({ configFile, cwd: io.cwd, env: io.env }) !== null) return projectWith(configFile, io, flags)
  return {
    source: `(no config in ${io.cwd})`,
    corpus: CorpusSpecSchema.parse(flags.corpus ?? 'corpus'),
    goldenSet: flags.golden ?? 'evals/golden-set.json',
  }
}

/** The project's documents; a command that reads them needs a corpus (not `corpus: null`). */
export function projectDocuments(project: Pick<ProjectConfig, 'corpus' | 'source'>, command: string): CorpusDocument[] {
  if (project.corpus === null)
    throw new InputError(
      `${project.source}: corpus is null, and ${command} reads the documents: set corpus in the config or pass --corpus <folder>`,
    )
  return loadCorpusFrom(project.corpus).documents
}
