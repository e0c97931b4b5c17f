import { templatesHash } from '../../model/prompt-template.ts'
import { JUDGE_DIMENSIONS } from '../dimensions/index.ts'
import { UNCLEAR_REFUSAL_PROMPT } from './unclear-refusal-prompt.ts'

/** The judge prompts an evaluation run uses: each judged metric's, then the unclear refusal's (pairwise is a separate helper). */
export const JUDGE_PROMPTS = [...JUDGE_DIMENSIONS.map((dimension) => dimension.prompt), UNCLEAR_REFUSAL_PROMPT] as const

/** inputs.judgePromptsHash: any edit of a prompt, tool or output schema names baselines of other prompts stale. */
export const JUDGE_PROMPTS_HASH = templatesHash(JUDGE_PROMPTS)
