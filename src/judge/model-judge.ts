import type { ModelClient } from '../model/model-client.ts'
import { block } from '../model/delimit.ts'
import { detectRefusal, type RefusalVerdict } from '../scoring/generation/refusal.ts'
import { JUDGE_DIMENSIONS, verdictsOf } from './dimensions/index.ts'
import { offlineVerdicts } from './offline-judge.ts'
import type { Judge, JudgeError, Judgement, JudgeInput } from './judge.ts'
import { askJudge, type ModelJudgeOptions } from './judge-dimension.ts'
import { UNCLEAR_REFUSAL_PROMPT } from './prompts/unclear-refusal-prompt.ts'

/** Decides an unclear refusal (a hedge with content) by the model: refused or answered. */
export async function judgeUnclearRefusal(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
): Promise<{ verdict: RefusalVerdict; error: JudgeError | null }> {
  const outcome = await askJudge(client, input, options, {
    template: UNCLEAR_REFUSAL_PROMPT,
    blocks: { answer: block('answer', input.answer) },
    inputs: { answer: input.answer },
  })
  if (!outcome.ok) return { verdict: 'unclear', error: { metric: 'refusal', message: `unclear-refusal judge: ${outcome.error}` } }
  return { verdict: outcome.output.verdict, error: null }
}

/**
 * The model judge: refusal by the deterministic patterns, unclear ones by the model; then each judged metric
 * independently, in parallel. A refusal needs no call. A metric without valid output after its repair attempt is
 * a judge error: null, status 'judge-error', listed in judgeErrors.
 */
export function createModelJudge(client: ModelClient, options: ModelJudgeOptions): Judge {
  return {
    name: `model:${options.model}`,
    async judge(input: JudgeInput): Promise<Judgement> {
      let refusal = detectRefusal(input.answer)
      if (refusal === 'unclear') {
        const decided = await judgeUnclearRefusal(client, input, options)
        if (decided.error) {
          return {
            refusal: 'unclear',
            ...verdictsOf((dimension) => dimension.failed()),
            judgeErrors: [decided.error],
          }
        }
        refusal = decided.verdict
      }
      if (refusal === 'refused') {
        return {
          refusal,
          ...offlineVerdicts(input, true),
          judgeErrors: [],
        }
      }
      const scored = await Promise.all(JUDGE_DIMENSIONS.map((dimension) => dimension.byModel(client, input, options)))
      return {
        refusal,
        ...verdictsOf((_, i) => scored[i]!.result),
        judgeErrors: scored.flatMap((s) => (s.error === null ? [] : [s.error])),
      }
    },
  }
}
