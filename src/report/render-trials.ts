import type { ReportTrials } from '../contract/trials-schema.ts'

/** A flaky question as one line: `g-1: passed 3 of 5 trials; varied: verdict, recall`. */
export function flakyLine(flaky: ReportTrials['flaky'][number]): string {
  return `${flaky.id}: passed ${flaky.passed} of ${flaky.of} trials; varied: ${flaky.varied.join(', ')}`
}

/** latest.md's section on the trials: the flaky questions and whether the set can see a drop of the tolerance. */
export function trialsLines(trials: ReportTrials): string[] {
  return [
    `## Trials (${trials.trials} per question)`,
    '',
    `Flaky (the outcome differs across trials): ${trials.flaky.length} question(s), rate ${trials.flakyRate}.`,
    '',
    ...trials.flaky.map((flaky) => `- ${flakyLine(flaky)}`),
    ...(trials.flaky.length > 0 ? [''] : []),
    `Minimum detectable drop of the pass rate (80% power): ${trials.minimumDetectableDrop ?? 'none'}.`,
    ...(trials.underpowered === null ? [] : ['', `warning: ${trials.underpowered}`]),
    '',
  ]
}
