import { templatesHash } from '../../model/prompt-template.ts'
import { ANSWER_RELEVANCY_PROMPT } from './answer-relevancy-prompt.ts'
import { COVERAGE_PROMPT } from './coverage-prompt.ts'
import { FAITHFULNESS_PROMPT } from './faithfulness-prompt.ts'
import { UNCLEAR_REFUSAL_PROMPT } from './unclear-refusal-prompt.ts'

/** The judge prompts an evaluation run uses (pairwise is a separate helper). */
export const JUDGE_PROMPTS = [FAITHFULNESS_PROMPT, ANSWER_RELEVANCY_PROMPT, COVERAGE_PROMPT, UNCLEAR_REFUSAL_PROMPT] as const

/**
 * The report's inputs.judgePromptsHash in the model modes: any edit of a judge prompt, its tool or its
 * output schema changes it, so a baseline measured with other prompts is named as stale.
 */
export const JUDGE_PROMPTS_HASH = templatesHash(JUDGE_PROMPTS)
