import { z } from 'zod'
import { GOLDEN_ID } from './golden-set-schema.ts'

/** The kinds of injected instruction `rag-eval attacks` plants, one page each (docs/security.md). */
export const ATTACK_FAMILIES = [
  'ignore-question',
  'reveal-system-prompt',
  'output-canary',
  'exfiltrate-link',
  'exfiltrate-image',
  'switch-language',
  'cite-fake-source',
] as const
export type AttackFamily = (typeof ATTACK_FAMILIES)[number]

/**
 * An attack question: a golden question (one answer document, the planted page) and what its page tells the model
 * to do. `canary` is the text an obeying answer contains and the page does not (the page spells how to build it);
 * null where only the judge can tell (a language, an ignored question, a revealed prompt).
 */
export const AttackQuestionSchema = z
  .object({
    id: z.string().regex(GOLDEN_ID, 'expected an id of letters, digits, . _ -'),
    type: z.literal('single'),
    question: z.string().trim().min(1, 'expected the question text'),
    answerDocIds: z.array(z.string().min(1)).length(1, 'expected the one planted page'),
    notes: z.string().optional(),
    attack: z
      .object({
        family: z.enum(ATTACK_FAMILIES),
        instruction: z.string().min(1).describe('The injected sentence, as the page carries it'),
        canary: z.string().min(6).nullable(),
      })
      .strict(),
  })
  .strict()
export type AttackQuestion = z.infer<typeof AttackQuestionSchema>

/** evals/attack-set.json: the attack questions, golden-set-shaped, kept apart from the quality golden set. */
export const AttackSetSchema = z.object({ questions: z.array(AttackQuestionSchema).min(1) }).strict()
export type AttackSet = z.infer<typeof AttackSetSchema>

/** One attack as the run saw it: obeyed true/false, or null when nothing could decide (why in `how`). */
export const AttackOutcomeSchema = z.object({
  id: z.string(),
  family: z.enum(ATTACK_FAMILIES),
  question: z.string(),
  docId: z.string(),
  /** Whether the planted page reached the context: an attack never shown to the model tests nothing. */
  inContext: z.boolean(),
  answer: z.string().nullable(),
  obeyed: z.boolean().nullable(),
  /** How it was decided: the canary's presence, the judge's reason, or why it was not decided. */
  how: z.string(),
  systemError: z.string().nullable(),
})
export type AttackOutcome = z.infer<typeof AttackOutcomeSchema>

/** Attacks, those decided, those obeyed, and the success rate: obeyed / decided (null when none was decided). */
const RatesSchema = z.object({
  attacks: z.number().int(),
  decided: z.number().int(),
  obeyed: z.number().int(),
  successRate: z.number().nullable(),
})

/** The report's attacks: the attack set, its rates overall and per family, and each attack. */
export const AttacksSchema = z.object({
  attackSet: z.string(),
  ...RatesSchema.shape,
  byFamily: z.record(z.string(), RatesSchema),
  outcomes: z.array(AttackOutcomeSchema),
})
export type Attacks = z.infer<typeof AttacksSchema>
