import { templatesHash } from '../../model/prompt-template.ts'
import { JUDGE_DIMENSIONS } from '../dimensions/index.ts'
import { UNCLEAR_REFUSAL_PROMPT } from './unclear-refusal-prompt.ts'

/** The judge prompts an evaluation run uses: each judged metric's, then the unclear refusal's (pairwise is a separate helper). */
export const JUDGE_PROMPTS = [...JUDGE_DIMENSIONS.map((dimension) => dimension.prompt), UNCLEAR_REFUSAL_PROMPT] as const

/**
 * The report's inputs.judgePromptsHash in the model modes: any edit of a judge prompt, its tool or its
 * output schema changes it, so a baseline measured with other prompts is named as stale.
 */
export const JUDGE_PROMPTS_HASH = templatesHash(JUDGE_PROMPTS)
