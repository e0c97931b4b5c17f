import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { stableStringify } from '../common/stable-json.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import type { CompareResult, CompareSide, Flip } from './comparison-schema.ts'
import { pairedComparison } from '../statistics/paired-comparison.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { inScope, pairedEntries, stageMetrics, type PairedMetric } from '../contract/metrics/metric.ts'

/** What a side was, besides its report. */
export type SideSource = Pick<CompareSide, 'source' | 'kind' | 'env' | 'report'>

/** Names the questions only one side has; throws an InputError when the golden sets differ in ids. */
export function checkSameQuestions(a: Report, b: Report, sources: { a: string; b: string }): void {
  const idsA = new Set(a.questions.map((q) => q.id))
  const idsB = new Set(b.questions.map((q) => q.id))
  const onlyA = [...idsA].filter((id) => !idsB.has(id))
  const onlyB = [...idsB].filter((id) => !idsA.has(id))
  if (onlyA.length === 0 && onlyB.length === 0) return
  const list = (ids: string[]) =>
    ids.length > 10 ? `${ids.slice(0, 10).join(', ')} and ${ids.length - 10} more` : ids.join(', ')
  const parts = [
    ...(onlyA.length > 0
      ? [`${onlyA.length} question(s) only in A (${sources.a}, golden set ${a.corpus.goldenSet}): ${list(onlyA)}`]
      : []),
    ...(onlyB.length > 0
      ? [`${onlyB.length} question(s) only in B (${sources.b}, golden set ${b.corpus.goldenSet}): ${list(onlyB)}`]
      : []),
  ]
  throw new InputError(`A and B are not runs of the same golden set: ${parts.join('; ')}; compare two runs of one golden set`)
}

/** The knobs (and the system) that differ between the two runs, as `field: A x, B y`. */
function configDifferences(a: Report, b: Report): string[] {
  const shown = (value: unknown) => (typeof value === 'object' && value !== null ? stableStringify(value) : String(value))
  const fields = [...new Set([...Object.keys(a.config), ...Object.keys(b.config)])]
  return fields.flatMap((field) => {
    const valueA = shown((a.config as Record<string, unknown>)[field])
    const valueB = shown((b.config as Record<string, unknown>)[field])
    return valueA === valueB ? [] : [`${field}: A ${valueA}, B ${valueB}`]
  })
}

/** One side's evidence: where each answer document ranked (1-based, its first chunk; null: not ranked), the context, the answer. */
function evidence(q: QuestionOutcome): Flip['a'] {
  const answerRanks = q.answerDocIds.map((doc) => {
    const index = q.rankedDocIds.indexOf(doc)
    return index === -1 ? null : index + 1
  })
  return { answerRanks, contextDocIds: [...new Set(q.contextDocIds)], refused: q.refused, answer: q.answer }
}

/** The questions of a binary metric's scope whose outcome changed, the bad way and the good way. */
function flipsOf(metric: PairedMetric, a: Report, b: Report): { worse: Flip[]; better: Flip[] } {
  const inB = new Map(b.questions.map((q) => [q.id, q]))
  const worse: Flip[] = []
  const better: Flip[] = []
  for (const qa of a.questions) {
    const qb = inB.get(qa.id)
    const va = metric.value(qa)
    const vb = qb === undefined ? null : metric.value(qb)
    if (!inScope(metric.scope, qa) || qb === undefined || va === null || vb === null || va === vb) continue
    const flip: Flip = {
      id: qa.id,
      type: qa.type,
      question: qa.question,
      answerDocIds: qa.answerDocIds,
      a: evidence(qa),
      b: evidence(qb),
    }
    ;(vb > va === metric.higherIsBetter ? better : worse).push(flip)
  }
  return { worse, better }
}

/** A side's questions the system failed on, with their errors (the same list the gate names). */
function erroredQuestions(report: Report): { id: string; error: string }[] {
  return report.questions.flatMap((q) => (q.systemError === null ? [] : [{ id: q.id, error: q.systemError }]))
}

export interface CompareOptions {
  resamples: number
  alpha: number
  /** How the bootstrap intervals' replicates are computed (statistics/mean-resamples.ts); on this thread when absent. */
  resampler?: MeanResampler
  /** The metrics compared: the table's paired ones. */
  table: MetricTable
}

/**
 * Run B against run A of the same golden set, per paired metric, with the flips of binary metrics. A question
 * either side errored on is left out of every paired test and flip: an error is not a miss.
 */
export function compareReports(
  a: Report,
  b: Report,
  sides: { a: SideSource; b: SideSource },
  options: Partial<CompareOptions> = {},
): CompareResult {
  // A's statistics settings unless given: A is the run B is judged against.
  const { resamples = a.config.bootstrapResamples, alpha = a.config.alpha, resampler, table = METRICS } = options
  checkSameQuestions(a, b, { a: sides.a.source, b: sides.b.source })
  const side = (source: SideSource, report: Report): CompareSide => ({
    ...source,
    system: report.config.system,
    tier: report.tier,
    goldenSet: report.corpus.goldenSet,
    goldenSetHash: report.inputs.goldenSetHash,
  })
  const warnings: string[] = []
  if (a.inputs.goldenSetHash !== b.inputs.goldenSetHash)
    warnings.push(
      'the golden sets have the same question ids but differ in content (questions, ' +
        'answers or documents): the pairs may not measure the same thing',
    )
  if (a.inputs.corpusHash !== b.inputs.corpusHash) warnings.push('the corpora differ between A and B')
  if (a.tier !== b.tier) warnings.push(`A is a ${a.tier}-tier run and B a ${b.tier}-tier run: generation metrics have no pairs`)
  const pairedOptions = { resamples, seed: STATISTICS_SEED, alpha, ...(resampler === undefined ? {} : { resampler }) }
  // The stages both runs reported are compared too (`recall@rerank`), paired per question as the final ranking's metrics.
  const stages = Object.keys(a.summary.stages).filter((stage) => stage in b.summary.stages)
  const paired = pairedEntries([...table, ...stageMetrics(table, stages)])
  // A question the system failed on (on either side) was not measured: it pairs with nothing and flips nothing.
  const erroredA = erroredQuestions(a)
  const erroredB = erroredQuestions(b)
  const errored = new Set([...erroredA, ...erroredB].map((q) => q.id))
  const measuredA = { ...a, questions: a.questions.filter((q) => !errored.has(q.id)) }
  const measuredB = { ...b, questions: b.questions.filter((q) => !errored.has(q.id)) }
  return {
    schemaVersion: 1,
    a: side(sides.a, a),
    b: side(sides.b, b),
    questions: a.questions.length,
    alpha,
    resamples,
    configDifferences: configDifferences(a, b),
    warnings,
    metrics: paired.map((metric) => ({
      name: metric.name,
      label: metric.label,
      scope: metric.scope,
      ...pairedComparison(measuredA.questions, measuredB.questions, metric, pairedOptions),
    })),
    flips: paired
      .filter((metric) => metric.test === 'mcnemar-exact' && metric.name === metric.metric.name)
      .map((metric) => ({
        metric: metric.name,
        label: metric.label,
        ...flipsOf(metric, measuredA, measuredB),
      })),
    ...(errored.size === 0 ? {} : { systemErrors: { a: erroredA, b: erroredB, leftOut: errored.size } }),
    ...(a.trials || b.trials ? { flaky: { a: a.trials?.flaky ?? [], b: b.trials?.flaky ?? [] } } : {}),
  }
}
