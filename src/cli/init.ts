import { renderScaffold, scaffold } from '../init/scaffold.ts'
import { folderOrAbsent } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval init [--dir .]`,
  description: `  Scaffolds the evaluation in a project folder (empty or existing): rag-eval.config.ts, a three-question
  evals/golden-set.json over a three-document corpus (evals/corpus/), a working system stub to replace with
  your pipeline (evals/rag-system.ts), and vitest.config.ts with the evaluation's project. It never
  overwrites a file: what exists is kept, and for an existing Vitest config it prints the lines to add.`,
  options: {
    dir: option(folderOrAbsent, { default: '.' }),
  },
  run: async ({ values, context }) => {
    context.out(`${renderScaffold(scaffold(values.dir))}\n`)
    return 0
  },
})
