import { goldenSetJsonSchema } from '../contract/golden-set-schema.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { fileToWrite } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval golden schema [--out evals/golden-set.schema.json]`,
  description: `  Regenerates the golden set's JSON Schema from its zod schema (the golden set's "$schema" points at it;
  a unit test checks the committed file is current).`,
  options: {
    out: option(fileToWrite, { default: 'evals/golden-set.schema.json' }),
  },
  run: async ({ values, context }) => {
    writeFileAtomic(values.out, JSON.stringify(goldenSetJsonSchema(), null, 2) + '\n')
    context.out(`wrote ${values.out}\n`)
    return 0
  },
})
