import { goldenSetJsonSchema } from '../load/golden-set-schema.ts'
import { writeFileAtomic } from '../report/write-report.ts'
import { runCli } from './run-cli.ts'

/** Regenerates evals/golden-set.schema.json from the zod schema (a unit test checks it is current). */
runCli('schema:golden', async () => {
  const path = 'evals/golden-set.schema.json'
  writeFileAtomic(path, JSON.stringify(goldenSetJsonSchema(), null, 2) + '\n')
  console.log(`wrote ${path}`)
})
