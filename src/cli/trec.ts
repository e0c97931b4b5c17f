/**
 * pnpm trec — trec_eval-conformant evaluation of a TREC run against qrels.
 *
 *   pnpm trec [-m <measures>]... [-c] [-q | --no-q] <qrels> <run>
 *
 * Prints `measure<TAB>qid<TAB>value` lines like `trec_eval -q` (per query, then `all`).
 * Errors: `trec: <message>` on stderr and a non-zero exit code (4 for a qrels query missing from
 * the run, as trec_eval; 2 for bad usage; 1 for bad input).
 */
import { parseArgs } from 'node:util'
import { byteStringToBuffer } from '../trec/byte-string'
import { TrecError } from '../trec/errors'
import { DEFAULT_MEASURES } from '../trec/measure-spec'
import { trecEvalText } from '../trec/trec-eval'

const EXIT_USAGE = 2

const USAGE = `usage: pnpm trec [-m <measures>]... [-c] [-q | --no-q] <qrels> <run>

  -m, --measures <list>  trec_eval measure specs, repeatable and/or comma-separated:
                         recip_rank, P.<k,...>, recall.<k,...>, ndcg_cut.<k,...>, num_q
                         (default: ${DEFAULT_MEASURES.join(' ')})
  -c                     average over all qrels queries; queries missing from the run count 0
                         (without -c a missing query is an error, as in trec_eval)
  -q                     per-query lines before the 'all' lines (the default)
      --no-q             only the 'all' lines
  -h, --help             this help
`

class UsageError extends TrecError {
  constructor(message: string) {
    super(`${message}\n${USAGE}`, EXIT_USAGE)
  }
}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        measures: { type: 'string', short: 'm', multiple: true },
        complete: { type: 'boolean', short: 'c', default: false },
        q: { type: 'boolean', short: 'q', default: false },
        'no-q': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseCommandLine(argv)
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  if (values.q && values['no-q']) throw new UsageError('-q and --no-q are mutually exclusive')
  if (positionals.length !== 2) throw new UsageError(`expected 2 files (qrels and run), got ${positionals.length}`)
  const [qrelsPath, runPath] = positionals as [string, string]

  const text = await trecEvalText(qrelsPath, runPath, {
    measures: values.measures ?? [...DEFAULT_MEASURES],
    averageComplete: values.complete,
    perQuery: !values['no-q'],
  })
  process.stdout.write(byteStringToBuffer(text))
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`trec: ${message.endsWith('\n') ? message : `${message}\n`}`)
  process.exitCode = error instanceof TrecError ? error.exitCode : 1
})
