export { byteStringToBuffer, compareBytes, displayId } from './byte-string'
export { EXIT_INPUT_ERROR, EXIT_MISSING_QUERY, TrecError } from './errors'
export { evaluateRun, type EvaluateOptions, type ReportRow, type TrecReport } from './evaluate'
export { formatReport, formatRow, formatValue, MEASURE_NAME_WIDTH, VALUE_DECIMALS } from './format'
export {
  DEFAULT_CUTOFFS,
  DEFAULT_MEASURES,
  MEASURE_FAMILIES,
  parseMeasureSpecs,
  type MeasureColumn,
  type MeasureFamily,
} from './measure-spec'
export { ndcgCut } from './measures/ndcg-cut'
export { precisionAt } from './measures/precision'
export { recallAt } from './measures/recall'
export { reciprocalRank } from './measures/recip-rank'
export { parseQrels, QrelsBuilder, readQrels, type Qrels } from './qrels'
export { compareRunResults, rankResults } from './rank'
export { parseRun, readRun, RunBuilder, type Run, type RunResult } from './run'
export { evaluateFiles, trecEvalText, TrecEvalOptionsSchema, type TrecEvalOptions } from './trec-eval'
