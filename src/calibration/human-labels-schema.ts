import { z } from 'zod'
import { COVERAGE } from '../contract/metrics/metric-table.ts'

/**
 * evals/human-labels.json: per sampled question, a person's verdict on whether the answer says anything not in
 * the material. The answer text is kept so a label on a since-changed answer is detected and left out.
 */
export const HumanLabelSchema = z
  .object({
    id: z.string().min(1).describe('Question id of the golden set'),
    label: z
      .enum(['unsupported', 'supported'])
      .describe('unsupported: the answer contains something not written in the material'),
    note: z.string().describe('Why: the sentence at fault, or what was checked'),
    who: z.string().min(1).describe('Who labelled it'),
    when: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}/, 'expected an ISO date')
      .describe('When it was labelled (ISO date)'),
    answer: z.string().describe('The answer that was labelled, verbatim'),
    // Optional: the person's values of the judge's other rates, for their prediction-powered estimates (docs/judging.md).
    refusalCorrect: z
      .boolean()
      .optional()
      .describe('Whether answering or refusing was right: refusing is right exactly when no document of the corpus answers'),
    [COVERAGE.name]: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .optional()
      .describe(
        "The share of the golden answer's facts the answer states (0 for a refusal); null for a question with no golden answer",
      ),
    ratesNote: z
      .string()
      .optional()
      .describe('Why those two values, and who added them when if not the labeller: kept apart from the note the report quotes'),
  })
  .strict()
export type HumanLabel = z.infer<typeof HumanLabelSchema>

export const HumanLabelsSchema = z
  .object({
    $schema: z.string().optional(),
    /** How the sample was drawn (seed and strata), so the draw can be reproduced. */
    sample: z
      .object({
        seed: z.number().int(),
        size: z.number().int().positive(),
        report: z.string(),
        ids: z.array(z.string()),
        /** How the sample grew, when it did (kept labels topped up with a new draw). */
        note: z.string().optional(),
      })
      .strict(),
    labels: z.array(HumanLabelSchema),
  })
  .strict()
export type HumanLabels = z.infer<typeof HumanLabelsSchema>
