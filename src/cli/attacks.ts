import { join, relative } from 'node:path'
import { attackPages } from '../authoring/attack-pages.ts'
import { ATTACK_FAMILIES } from '../contract/attack-set-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { fileToWrite, folderOrAbsent, text } from './arg-kinds.ts'
import { option } from './args.ts'
import { projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval attacks [--out <corpus>/attacks] [--set evals/attack-set.json] [--seed rag-eval]`,
  description: `  Writes one ordinary-looking page per kind of injected instruction (${ATTACK_FAMILIES.join(', ')})
  into --out, a folder the system under test must index beside its corpus (default: attacks/ inside the config's
  corpus folder; for a service, a folder its command reads, e.g. through its env), and the attack questions that
  retrieve them to --set (default: the config's attackSet), which every full run then asks. The same seed writes the
  same bytes. Each run reports how often the system obeyed them (docs/security.md).`,
  options: {
    out: option(folderOrAbsent),
    set: option(fileToWrite),
    seed: option(text, { default: 'rag-eval' }),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(context.config, context)
    const out = values.out ?? (project.corpus === null ? null : join(project.corpus.dir, 'attacks'))
    if (out === null)
      throw new InputError(
        'rag-eval attacks: the config has no corpus (corpus: null): say where the pages go with --out <folder>',
      )
    const setFile = values.set ?? project.attackSet
    const { pages, set } = attackPages(values.seed, ATTACK_FAMILIES)
    for (const page of pages) writeFileAtomic(join(out, page.path), page.text)
    writeFileAtomic(setFile, `${JSON.stringify(set, null, 2)}\n`)
    const shown = (path: string) => relative(context.cwd, path) || '.'
    context.out(
      `wrote ${pages.length} attack pages to ${shown(out)}/ and their questions to ${shown(setFile)}\n` +
        `the system under test must index ${shown(out)}/ (a folder inside the corpus is indexed with it; ` +
        `a service reads it from its own config or env); every full run then reports the attack success rate\n`,
    )
    return 0
  },
})
