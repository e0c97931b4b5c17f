import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { FAITHFULNESS_JUDGE } from '../../judge/dimensions/index.ts'
import { callStructured } from '../../model/structured-call.ts'
import { block, materialBlock } from '../../model/delimit.ts'
import { type ModelClient } from '../../model/model-client.ts'
import { ModelCallError } from '../../model/model-errors.ts'
import { rootCause } from '../draft/draft-set.ts'
import { renderUser, type ToolTemplate } from '../../model/prompt-template.ts'
import type { z } from 'zod'
import type { ClaimSupport, Passage, Verifier } from './verifier.ts'
import { ANSWERABILITY_PROMPT, DISAGREEMENT_PROMPT } from './verify-prompts.ts'

export interface ModelVerifierOptions {
  /** The judge model (EVAL_JUDGE_MODEL). */
  model: string
  maxTokens: number
}

const material = (passages: readonly Passage[]) => passages.map((p) => ({ chunkId: p.id, text: p.text }))

/**
 * A call that failed for good (its retries spent on a 500, a dropped connection) is the check's undecided verdict,
 * naming the error; the spending cap and a stop still end the run.
 */
async function orFailure<T, U>(call: Promise<T>, failed: (error: string) => U): Promise<T | U> {
  try {
    return await call
  } catch (error) {
    // Refused because the cap was reached or the run stopped: not this check's failure.
    if (!(error instanceof ModelCallError) || rootCause(error) !== error) throw error
    return failed(error.message)
  }
}

/**
 * The verifier on the model client: claims by the faithfulness judge, answerability and disagreement by forced tool
 * calls validated with zod. A call still invalid after its repair attempt is undecided, naming the error.
 */
export function createModelVerifier(client: ModelClient, options: ModelVerifierOptions): Verifier {
  /** A forced tool call of the judge on the question and the passages (named `key` in the cache key's inputs). */
  const judgeCall = <S extends z.ZodType>(
    template: ToolTemplate<S>,
    check: string,
    question: GoldenQuestion,
    key: 'passages' | 'documents',
    passages: readonly Passage[],
    valid: (output: z.output<S>) => string | null,
  ) =>
    orFailure(
      callStructured(client, {
        template,
        role: 'judge',
        subject: question.id,
        purpose: `verify:${check}`,
        model: options.model,
        maxTokens: options.maxTokens,
        user: renderUser(template, {
          question: block('question', question.question),
          material: materialBlock(material(passages)),
        }),
        inputs: { question: question.question, [key]: material(passages) },
        check: valid,
      }),
      (error) => ({ ok: false as const, error }),
    )
  return {
    name: `model:${options.model}`,
    async supportClaims(question: GoldenQuestion, claims, passages) {
      const subject = passages.length === 1 ? `${question.id}@${passages[0]!.id}` : question.id
      const { result, error } = await orFailure(
        FAITHFULNESS_JUDGE.byModel(
          client,
          {
            questionId: subject,
            question: question.question,
            answer: question.goldAnswer ?? claims.join(' '),
            goldAnswer: null,
            context: material(passages),
          },
          options,
        ),
        (message) => ({ result: { claims: [] }, error: { message: `${FAITHFULNESS_JUDGE.metric.name} judge: ${message}` } }),
      )
      if (error !== null || result.claims.length !== claims.length)
        return claims.map((claim): ClaimSupport => ({
          claim,
          verdict: 'undecided',
          passageId: null,
          reason: error?.message ?? `the judge split the answer into ${result.claims.length} claims, not ${claims.length}`,
        }))
      return result.claims.map((v, i): ClaimSupport => ({
        claim: claims[i]!,
        verdict: v.verdict === 'supported' ? 'supported' : 'unsupported',
        passageId: v.chunkId,
        reason: `${v.judgeVerdict ?? v.verdict}: ${v.reason ?? ''}`.trim(),
      }))
    },
    async answers(question, passages) {
      const outcome = await judgeCall(ANSWERABILITY_PROMPT, 'answerability', question, 'passages', passages, (output) =>
        output.verdict === 'answers' && !passages.some((p) => p.id === output.chunkId)
          ? `answers relies on ${JSON.stringify(output.chunkId)}, which is not a chunk of the material`
          : null,
      )
      if (!outcome.ok) return { verdict: 'undecided', passageId: null, reason: `answerability judge: ${outcome.error}` }
      const { verdict, chunkId, reason } = outcome.output
      return verdict === 'answers'
        ? { verdict: 'answers', passageId: chunkId, reason }
        : { verdict: 'does-not-answer', passageId: null, reason }
    },
    async disagreement(question, documents) {
      const outcome = await judgeCall(DISAGREEMENT_PROMPT, 'disagreement', question, 'documents', documents, (output) =>
        output.governingChunkId !== null && !documents.some((d) => d.id === output.governingChunkId)
          ? `governingChunkId ${JSON.stringify(output.governingChunkId)} is not a chunk of the material`
          : null,
      )
      if (!outcome.ok) return { verdict: 'undecided', governingDocId: null, reason: `disagreement judge: ${outcome.error}` }
      const { verdict, governingChunkId, values, reason } = outcome.output
      const stated = values.map((v) => `${v.chunkId}: ${v.answer || '(none)'}`).join('; ')
      return { verdict, governingDocId: verdict === 'disagree' ? governingChunkId : null, reason: `${reason} (${stated})` }
    },
  }
}
