import { z } from 'zod'
import { evaluateRun, type TrecReport } from './evaluate'
import { formatReport } from './format'
import { DEFAULT_MEASURES, parseMeasureSpecs } from './measure-spec'
import { readQrels } from './qrels'
import { readRun } from './run'

/** Options of a trec_eval-style evaluation of two files. */
export const TrecEvalOptionsSchema = z.object({
  /** trec_eval -m specs, e.g. ['recip_rank', 'recall.5,10', 'ndcg_cut.10'] (see measure-spec.ts). */
  measures: z
    .array(z.string())
    .min(1)
    .default([...DEFAULT_MEASURES]),
  /** trec_eval -c: count qrels queries missing from the run as 0 instead of failing. */
  averageComplete: z.boolean().default(false),
  /** trec_eval -q: per-query rows before the `all` rows. */
  perQuery: z.boolean().default(true),
})
export type TrecEvalOptions = z.input<typeof TrecEvalOptionsSchema>

/** Streams a qrels and a run file through evaluateRun; measures are checked before any read; TrecError on bad input. */
export async function evaluateFiles(qrelsPath: string, runPath: string, options: TrecEvalOptions = {}): Promise<TrecReport> {
  const parsed = TrecEvalOptionsSchema.parse(options)
  const columns = parseMeasureSpecs(parsed.measures)
  const qrels = await readQrels(qrelsPath)
  const run = await readRun(runPath)
  return evaluateRun(qrels, run, columns, { averageComplete: parsed.averageComplete })
}

/** `evaluateFiles` rendered exactly as trec_eval prints it (a latin1 byte string; see byte-string.ts). */
export async function trecEvalText(qrelsPath: string, runPath: string, options: TrecEvalOptions = {}): Promise<string> {
  const report = await evaluateFiles(qrelsPath, runPath, options)
  return formatReport(report, { perQuery: TrecEvalOptionsSchema.parse(options).perQuery })
}
