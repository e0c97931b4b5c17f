import { byteStringToBuffer } from '../trec/byte-string'
import { TrecError } from '../trec/errors'
import { DEFAULT_MEASURES } from '../trec/measure-spec'
import { trecEvalText } from '../trec/trec-eval'
import { file, text } from './arg-kinds.ts'
import { flag, repeatable, UsageError } from './args.ts'
import { defineCommand } from './command.ts'

/**
 * rag-eval trec: `trec_eval -q`-style `measure<TAB>qid<TAB>value` lines for a run against qrels. Exit codes: 4 for a
 * qrels query missing from the run (as trec_eval), 2 bad usage, 1 bad input.
 */
export const command = defineCommand({
  usage: `usage: rag-eval trec [-m <measures>]... [-c] [-q | --no-q] <qrels> <run>`,
  description: `
  -m, --measures <list>  trec_eval measure specs, repeatable and/or comma-separated:
                         recip_rank, P.<k,...>, recall.<k,...>, ndcg_cut.<k,...>, num_q
                         (default: ${DEFAULT_MEASURES.join(' ')})
  -c                     average over all qrels queries; queries missing from the run count 0
                         (without -c a missing query is an error, as in trec_eval)
  -q                     per-query lines before the 'all' lines (the default)
      --no-q             only the 'all' lines
  -h, --help             this help`,
  options: {
    measures: repeatable(text, { short: 'm' }),
    complete: flag({ short: 'c' }),
    q: flag({ short: 'q' }),
    'no-q': flag(),
  },
  positionals: [
    { name: 'qrels', kind: file },
    { name: 'run', kind: file },
  ],
  run: async ({ values, positionals: [qrelsPath, runPath], context }) => {
    if (values.q && values['no-q']) throw new UsageError('-q and --no-q are mutually exclusive')
    try {
      const output = await trecEvalText(qrelsPath, runPath, {
        measures: values.measures.length > 0 ? values.measures : [...DEFAULT_MEASURES],
        averageComplete: values.complete,
        perQuery: !values['no-q'],
      })
      context.out(byteStringToBuffer(output))
      return 0
    } catch (error) {
      // trec_eval's own exit codes (4: a qrels query missing from the run), with its message alone.
      if (!(error instanceof TrecError)) throw error
      context.err(`trec: ${error.message.endsWith('\n') ? error.message : `${error.message}\n`}`)
      return error.exitCode
    }
  },
})
