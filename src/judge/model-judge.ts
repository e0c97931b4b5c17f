import type { ModelClient } from '../model/model-client.ts'
import { block, claimsBlock, materialBlock, questionBlock } from '../model/delimit.ts'
import { renderUser } from '../model/prompt-template.ts'
import { lexicalAnswerRelevancy, type RelevancyStatus } from '../scoring/generation/answer-relevancy.ts'
import { splitClaims } from '../scoring/generation/claims.ts'
import { goldCoverage, type CoverageResult } from '../scoring/generation/coverage.ts'
import { lexicalFaithfulness, type ClaimVerdict, type FaithfulnessResult } from '../scoring/generation/faithfulness.ts'
import type { MetricResult } from '../scoring/generation/metric-result.ts'
import { detectRefusal, type RefusalVerdict } from '../scoring/generation/refusal.ts'
import type { Judge, JudgeError, Judgement, JudgeInput } from './judge.ts'
import { ANSWER_RELEVANCY_PROMPT } from './prompts/answer-relevancy-prompt.ts'
import { COVERAGE_PROMPT } from './prompts/coverage-prompt.ts'
import { FAITHFULNESS_PROMPT, type FaithfulnessOutput } from './prompts/faithfulness-prompt.ts'
import { UNCLEAR_REFUSAL_PROMPT } from './prompts/unclear-refusal-prompt.ts'
import { callStructured } from '../model/structured-call.ts'

export interface ModelJudgeOptions {
  /** The judge model (EVAL_JUDGE_MODEL). */
  model: string
  /** max_tokens of a judge call (config judgeMaxTokens); a cut-off reply is repaired once with twice as many. */
  maxTokens: number
}

/** A follow-up question's history in a call's cache key; nothing for a standalone question, whose keys stay as they were. */
const historyInput = (input: JudgeInput) => (input.history === undefined ? {} : { history: input.history })

type Scored<T> = { result: T; error: JudgeError | null }

const faithfulnessError = (): FaithfulnessResult => ({
  value: null,
  status: 'judge-error',
  numerator: 0,
  denominator: 0,
  claims: [],
  unsupportedClaims: [],
})
const relevancyError = (): MetricResult<RelevancyStatus> => ({ value: null, status: 'judge-error', numerator: 0, denominator: 0 })
const coverageError = (): CoverageResult => ({ value: null, status: 'judge-error', numerator: 0, denominator: 0, missing: [] })

/** Checks the faithfulness output against the claims and the material: one verdict per claim, real chunk ids. */
export function checkVerdicts(output: FaithfulnessOutput, claimCount: number, chunkIds: ReadonlySet<string>): string | null {
  if (output.verdicts.length !== claimCount) return `${output.verdicts.length} verdict(s) for ${claimCount} claim(s)`
  const numbers = output.verdicts.map((v) => v.claim).sort((a, b) => a - b)
  if (numbers.some((n, i) => n !== i + 1)) return `claim numbers ${numbers.join(', ')} are not 1..${claimCount}, each once`
  for (const verdict of output.verdicts) {
    if (verdict.verdict === 'not_found') continue
    if (verdict.chunkId === null || !chunkIds.has(verdict.chunkId))
      return (
        `claim ${verdict.claim} (${verdict.verdict}) relies on ${JSON.stringify(verdict.chunkId)}, ` +
        `which is not a chunk of the material`
      )
  }
  return null
}

/**
 * Faithfulness by the model: the answer split into claims (the same split as the offline judge, so the
 * unsupported sentences are quoted verbatim), each judged supported / contradicted / not found against
 * the material with the chunk it relies on. Score = supported / claims.
 */
export async function judgeFaithfulness(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
): Promise<Scored<FaithfulnessResult>> {
  const claims = splitClaims(input.answer)
  if (claims.length === 0)
    return {
      result: { value: null, status: 'nothing-decidable', numerator: 0, denominator: 0, claims: [], unsupportedClaims: [] },
      error: null,
    }
  const chunkIds = new Set(input.context.map((c) => c.chunkId))
  const outcome = await callStructured(client, {
    template: FAITHFULNESS_PROMPT,
    role: 'judge',
    subject: input.questionId,
    purpose: 'judge:faithfulness',
    model: options.model,
    maxTokens: options.maxTokens,
    sample: input.repeat ?? 0,
    user: renderUser(FAITHFULNESS_PROMPT, {
      question: questionBlock(input.question, input.history),
      material: materialBlock(input.context),
      claims: claimsBlock(claims),
      claimCount: String(claims.length),
    }),
    inputs: {
      question: input.question,
      ...historyInput(input),
      claims,
      context: input.context.map(({ chunkId, text }) => ({ chunkId, text })),
    },
    check: (output) => checkVerdicts(output, claims.length, chunkIds),
  })
  if (!outcome.ok)
    return { result: faithfulnessError(), error: { metric: 'faithfulness', message: `faithfulness judge: ${outcome.error}` } }
  const byNumber = new Map(outcome.output.verdicts.map((v) => [v.claim, v]))
  const verdicts: ClaimVerdict[] = claims.map((claim, i) => {
    const v = byNumber.get(i + 1)!
    return {
      claim,
      verdict: v.verdict === 'supported' ? 'supported' : 'unsupported',
      overlap: null,
      missingNumbers: [],
      chunkId: v.verdict === 'not_found' ? null : v.chunkId,
      judgeVerdict: v.verdict,
      reason: v.reason,
    }
  })
  const supported = verdicts.filter((v) => v.verdict === 'supported').length
  return {
    result: {
      value: supported / claims.length,
      status: 'scored',
      numerator: supported,
      denominator: claims.length,
      claims: verdicts,
      unsupportedClaims: verdicts.filter((v) => v.verdict === 'unsupported').map((v) => v.claim),
    },
    error: null,
  }
}

/** Answer relevancy by the model: one anchor of 1 / 0.6 / 0.3 / 0. */
export async function judgeRelevancy(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
): Promise<Scored<MetricResult<RelevancyStatus>>> {
  const outcome = await callStructured(client, {
    template: ANSWER_RELEVANCY_PROMPT,
    role: 'judge',
    subject: input.questionId,
    purpose: 'judge:answer-relevancy',
    model: options.model,
    maxTokens: options.maxTokens,
    sample: input.repeat ?? 0,
    user: renderUser(ANSWER_RELEVANCY_PROMPT, {
      question: questionBlock(input.question, input.history),
      answer: block('answer', input.answer),
    }),
    inputs: { question: input.question, ...historyInput(input), answer: input.answer },
  })
  if (!outcome.ok)
    return { result: relevancyError(), error: { metric: 'answerRelevancy', message: `relevancy judge: ${outcome.error}` } }
  const score = outcome.output.score
  return { result: { value: score, status: 'scored', numerator: score, denominator: 1 }, error: null }
}

/** Coverage by the model: the gold answer's key facts, each present / missing / contradicted in the answer. */
export async function judgeCoverage(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
): Promise<Scored<CoverageResult>> {
  if (input.goldAnswer === null) return { result: goldCoverage(null, input.answer, false), error: null }
  const outcome = await callStructured(client, {
    template: COVERAGE_PROMPT,
    role: 'judge',
    subject: input.questionId,
    purpose: 'judge:coverage',
    model: options.model,
    maxTokens: options.maxTokens,
    sample: input.repeat ?? 0,
    user: renderUser(COVERAGE_PROMPT, {
      question: questionBlock(input.question, input.history),
      goldAnswer: block('gold_answer', input.goldAnswer),
      answer: block('answer', input.answer),
    }),
    inputs: { question: input.question, ...historyInput(input), goldAnswer: input.goldAnswer, answer: input.answer },
  })
  if (!outcome.ok) return { result: coverageError(), error: { metric: 'coverage', message: `coverage judge: ${outcome.error}` } }
  const facts = outcome.output.facts
  const present = facts.filter((f) => f.status === 'present').length
  return {
    result: {
      value: present / facts.length,
      status: 'scored',
      numerator: present,
      denominator: facts.length,
      missing: facts
        .filter((f) => f.status !== 'present')
        .map((f) => (f.status === 'contradicted' ? `${f.fact} (contradicted)` : f.fact)),
    },
    error: null,
  }
}

/** Decides an unclear refusal (a hedge with content) by the model: refused or answered. */
export async function judgeUnclearRefusal(
  client: ModelClient,
  input: JudgeInput,
  options: ModelJudgeOptions,
): Promise<{ verdict: RefusalVerdict; error: JudgeError | null }> {
  const outcome = await callStructured(client, {
    template: UNCLEAR_REFUSAL_PROMPT,
    role: 'judge',
    subject: input.questionId,
    purpose: 'judge:unclear-refusal',
    model: options.model,
    maxTokens: options.maxTokens,
    sample: input.repeat ?? 0,
    user: renderUser(UNCLEAR_REFUSAL_PROMPT, {
      question: questionBlock(input.question, input.history),
      answer: block('answer', input.answer),
    }),
    inputs: { question: input.question, ...historyInput(input), answer: input.answer },
  })
  if (!outcome.ok) return { verdict: 'unclear', error: { metric: 'refusal', message: `unclear-refusal judge: ${outcome.error}` } }
  return { verdict: outcome.output.verdict, error: null }
}

/**
 * The model judge (Claude through the model client): refusal by the deterministic patterns, the unclear
 * ones decided by the model; then faithfulness, relevancy and coverage judged independently (in
 * parallel, each answer on its own: no pairwise unless asked). A refusal is scored without a call, as
 * the offline judge scores it. A metric without valid output after its repair attempt is a judge error:
 * null, status 'judge-error', listed in judgeErrors.
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
            faithfulness: faithfulnessError(),
            answerRelevancy: relevancyError(),
            coverage: coverageError(),
            judgeErrors: [decided.error],
          }
        }
        refusal = decided.verdict
      }
      if (refusal === 'refused') {
        return {
          refusal,
          faithfulness: lexicalFaithfulness(input.answer, true, input.context),
          answerRelevancy: lexicalAnswerRelevancy(input.question, input.answer, true, input.history),
          coverage: goldCoverage(input.goldAnswer, input.answer, true),
          judgeErrors: [],
        }
      }
      const [faithfulness, relevancy, coverage] = await Promise.all([
        judgeFaithfulness(client, input, options),
        judgeRelevancy(client, input, options),
        judgeCoverage(client, input, options),
      ])
      return {
        refusal,
        faithfulness: faithfulness.result,
        answerRelevancy: relevancy.result,
        coverage: coverage.result,
        judgeErrors: [faithfulness.error, relevancy.error, coverage.error].filter((e): e is JudgeError => e !== null),
      }
    },
  }
}
