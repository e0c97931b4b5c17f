import { z } from 'zod'
import { QUESTION_TYPES } from './question-types.ts'
import { HistorySchema } from './history-schema.ts'
import { JudgeRepeatsSchema } from './judge-noise-schema.ts'
import { ProvenanceSchema } from './provenance-schema.ts'
import { BLAMES, DIAGNOSES } from './diagnoses.ts'
import { QuestionTrialsSchema } from './trials-schema.ts'

// Apart from report-schema.ts so what reads outcomes alone (the matchers, in every test worker) builds only this.
/** A metric's value: null when it cannot be computed (the reason is in the summary's notComputed). */
export const metric = z.number().nullable()

export const RankedEntrySchema = z.object({ chunkId: z.string(), docId: z.string(), score: z.number() })
/** A chunk of the context; `text` goes to contexts.jsonl (writeReports), never into latest.json. */
export const ContextEntrySchema = z.object({
  chunkId: z.string(),
  docId: z.string(),
  tokens: z.number().int(),
  text: z.string().optional(),
})

export const ClaimVerdictSchema = z.object({
  claim: z.string(),
  verdict: z.enum(['supported', 'unsupported', 'undecidable']),
  overlap: z.number().nullable(),
  missingNumbers: z.array(z.string()),
  chunkId: z.string().nullable(),
  /** Model judge only: its own verdict (contradicted and not_found both count as unsupported) and reason. */
  judgeVerdict: z.enum(['supported', 'contradicted', 'not_found']).optional(),
  reason: z.string().optional(),
})

/** A claim of the generator diagnostics: the chunks that entail it; whether the other text (answer / gold answer) does. */
export const CheckedClaimSchema = z.object({ claim: z.string(), chunkIds: z.array(z.string()), matched: z.boolean() })

/** How a generation score came about: its status and the counts behind it (never NaN). */
export const ScoreDetailSchema = z.object({ status: z.string(), numerator: z.number(), denominator: z.number() })

export const GenerationDetailSchema = z.object({
  refusal: z.enum(['refused', 'answered', 'unclear']),
  faithfulness: ScoreDetailSchema.extend({ claims: z.array(ClaimVerdictSchema) }),
  answerRelevancy: ScoreDetailSchema,
  coverage: ScoreDetailSchema.extend({ missing: z.array(z.string()) }),
  /** The generator diagnostics' claims (RAGChecker's), each with the chunks that entail it; absent from older reports. */
  claimRecall: ScoreDetailSchema.extend({
    gold: z.array(CheckedClaimSchema),
    answer: z.array(CheckedClaimSchema),
  }).optional(),
  /** Each sentence's citations and their verdicts; absent from older reports. */
  // Keys in the order the judges write them: a report read back (a sharded run's merge) must serialise byte-identically.
  citationPrecision: ScoreDetailSchema.extend({
    sentences: z.array(
      z.object({
        sentence: z.string(),
        cited: z.array(z.string()),
        fabricated: z.array(z.string()),
        needsSupport: z.boolean(),
        supportedBy: z.array(z.string()),
        supported: z.boolean(),
      }),
    ),
    supportedSentences: ScoreDetailSchema,
  }).optional(),
  /** contradiction questions: the governing facts carried and the superseded ones repeated. */
  contradiction: z.object({ governingFacts: z.array(z.string()), staleFacts: z.array(z.string()) }).nullable(),
  /** Metrics the model judge could not score (no valid output after one repair): null, status judge-error. */
  judgeErrors: z.array(z.object({ metric: z.string(), message: z.string() })).default([]),
})
export type GenerationDetail = z.infer<typeof GenerationDetailSchema>

/** One stage the system reported, in pipeline order: its ranking's hit and reciprocal rank, as the final ranking's. */
export const StageOutcomeSchema = z.object({
  /** The stage's name, its n-th repeat numbered `name#n` (n from 2): the key of its metrics (`recall@rerank`). */
  name: z.string(),
  query: z.string().optional(),
  /** How many chunks the stage output. */
  ranked: z.number().int(),
  /** null for a none question, as the final ranking's. */
  hit: z.boolean().nullable(),
  reciprocalRank: metric,
  topRanked: z.array(RankedEntrySchema),
})
export type StageOutcome = z.infer<typeof StageOutcomeSchema>

/** Where an answer document was lost (docs/metrics.md, the loss funnel); `in-context` when no answer was judged. */
export const FUNNEL_STEPS = ['never-retrieved', 'stage', 'budget', 'unused', 'misstated', 'survived', 'in-context'] as const
export const FunnelEntrySchema = z.object({
  docId: z.string(),
  lost: z.enum(FUNNEL_STEPS),
  /** The stage that cut it (lost: stage). */
  stage: z.string().optional(),
  /** Its best rank (from 1) in the last ranking that held it; absent when never retrieved. */
  rank: z.number().int().optional(),
})
export type FunnelEntry = z.infer<typeof FunnelEntrySchema>

export const QuestionOutcomeSchema = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  question: z.string(),
  /** The golden question's userContext, passed verbatim to the system. */
  userContext: z.record(z.string(), z.unknown()).nullable().default(null),
  /** A follow-up question's conversation before it, oldest first; absent for a standalone question. */
  history: HistorySchema.optional(),
  /** The golden question's provenance (drafted by a model, reviewed by whom, or unreviewed); absent: hand-written. */
  provenance: ProvenanceSchema.optional(),
  /** Why the system failed on this question; the question then counts as a miss everywhere. */
  systemError: z.string().nullable().default(null),
  answerDocIds: z.array(z.string()),
  /** A graded question's grades (document id -> 0..3), the gains of its nDCG; absent for an ungraded question (every answer doc 1). */
  relevance: z.record(z.string(), z.number().int()).optional(),
  governingDocId: z.string().nullable(),
  goldAnswer: z.string().nullable(),
  rankedDocIds: z.array(z.string()),
  contextDocIds: z.array(z.string()),
  contextTokens: z.number().int(),
  relevantChunkCount: z.number().int().nullable(),
  hit: z.boolean(),
  reciprocalRank: metric,
  ndcg10: metric,
  docNdcg10: metric,
  recallAtK: metric,
  /**
   * RAGAS's IDBasedContextRecall and IDBasedContextPrecision, retrieved = contextDocIds, reference = answerDocIds;
   * null where RAGAS gives NaN. `rag-eval export --format ragas` hands RAGAS the same ids.
   */
  idBasedContextRecall: metric.default(null),
  idBasedContextPrecision: metric.default(null),
  /** The ten best ranked chunks with their scores: the evidence for a miss. */
  topRanked: z.array(RankedEntrySchema),
  /** The chunks packed into the context, with their sizes. */
  context: z.array(ContextEntrySchema),
  answer: z.string().nullable(),
  refused: z.boolean().nullable(),
  faithfulness: metric,
  unsupportedClaims: z.array(z.string()).nullable(),
  answerRelevancy: metric,
  coverage: metric,
  contradictionHandled: z.boolean().nullable(),
  /** The generator diagnostics (docs/metrics.md): null where not computed, and in older reports. */
  claimRecall: metric.default(null),
  contextUtilisation: metric.default(null),
  noiseSensitivity: metric.default(null),
  hallucination: metric.default(null),
  selfKnowledge: metric.default(null),
  citationPrecision: metric.default(null),
  citationRecall: metric.default(null),
  /** The answer's citations outside its context, by name: `[7]` past a 5-chunk context, or the chunk id. */
  fabricatedCitations: z.array(z.string()).nullable().default(null),
  diagnosis: z.enum(DIAGNOSES).nullable(),
  /** Whose failure the answer is by the generator diagnostics; null when neither's, or unknown. */
  blame: z.enum(BLAMES).nullable().default(null),
  /** How each generation score came about; null in the retrieval tier. */
  generation: GenerationDetailSchema.nullable(),
  /** With EVAL_REPEATS > 1: the judge-derived scores of every repeat (the first is the score above); null otherwise. */
  judgeRepeats: JudgeRepeatsSchema.nullable().default(null),
  /** The stages the system reported, in order; empty when it reports none. */
  stages: z.array(StageOutcomeSchema).default([]),
  /** Each relevant answer document and where it was lost; null for a none question or a system error. */
  funnel: z.array(FunnelEntrySchema).nullable().default(null),
  /** With trials > 1: every trial of the question (its metrics read their mean over them); absent otherwise. */
  trials: QuestionTrialsSchema.optional(),
  /** The prompt the system says it gave the model: for attribution.jsonl (writeReports), never in latest.json. */
  prompt: z.string().optional(),
})
export type QuestionOutcome = z.infer<typeof QuestionOutcomeSchema>

/** A question's outcome before its answer is judged (and in the retrieval tier): every field of the answer's judgement null. */
export const NOT_JUDGED = {
  refused: null,
  faithfulness: null,
  unsupportedClaims: null,
  answerRelevancy: null,
  coverage: null,
  contradictionHandled: null,
  claimRecall: null,
  contextUtilisation: null,
  noiseSensitivity: null,
  hallucination: null,
  selfKnowledge: null,
  citationPrecision: null,
  citationRecall: null,
  fabricatedCitations: null,
  diagnosis: null,
  blame: null,
  generation: null,
  judgeRepeats: null,
} as const satisfies Partial<QuestionOutcome>
