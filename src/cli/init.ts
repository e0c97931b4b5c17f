import { renderScaffold, scaffold } from '../init/scaffold.ts'
import { folder, folderOrAbsent } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval init [--dir .] [--corpus folder]`,
  description: `  Scaffolds the evaluation in a project folder (empty or existing): rag-eval.config.ts, a three-question
  evals/golden-set.json over a three-document corpus (evals/corpus/), a working system stub to replace with
  your pipeline (evals/rag-system.ts), and vitest.config.ts with the evaluation's project. It never
  overwrites a file: what exists is kept, and for an existing Vitest config it prints the lines to add.
  --corpus: your own documents instead of the example: the config reads them, the golden set starts with no
  question, and init prints how to draft, verify and review the first ones.`,
  options: {
    dir: option(folderOrAbsent, { default: '.' }),
    corpus: option(folder),
  },
  run: async ({ values, context }) => {
    context.out(`${renderScaffold(scaffold(values.dir, values.corpus))}\n`)
    return 0
  },
})
