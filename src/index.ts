/**
 * rag-vitest-eval's public surface (with `rag-vitest-eval/vitest` and `/config`); every other module is internal.
 *
 *   rag-eval.config.ts   export default defineConfig({ corpus, goldenSet, baseline, system, ...knobs })   (from 'rag-vitest-eval/config')
 *   src/rag.ts           export default defineRagSystem(async ({ corpus, config }) => ({ name, answer }))
 *   vitest.config.ts     test: { projects: [ragEval()] }          (from 'rag-vitest-eval/vitest')
 */

// Configuration: one typed file read by the CLI and by Vitest alike (also `rag-vitest-eval/config`, the light entry).
export { defineConfig, type RagEvalConfig, type SystemSpec } from './config/define-config.ts'
export type { ProjectConfig } from './config/project-config.ts'
export { loadProjectConfig } from './config/load-project-config.ts'
export type { EvalConfig } from './contract/eval-config-schema.ts'

// The system under test: implement this interface in process, or serve the HTTP contract (docs/your-pipeline.md).
export {
  defineRagSystem,
  type RagSystem,
  type RagSystemContext,
  type RagSystemFactory,
  type Citation,
  type RetrievedChunk,
  type SystemAnswer,
  type SystemQuestion,
  type SystemStage,
} from './system/rag-system.ts'
export type { CorpusDocument } from './load/corpus.ts'
// Fusing rankings by reciprocal rank: any systems' ranked chunks (e.g. yours and a keyword search) into one.
export { fuse, type FusedItem } from './builtin/rank-fusion.ts'
// The built-in system's retrieval options (the config's `retrieval` knob).
export type { RetrieverOptions } from './contract/retriever-options.ts'
export type { GoldenQuestion } from './contract/golden-set-schema.ts'

// Running an evaluation from code (the CLI and the Vitest project do exactly this).
export { evaluate, type EvaluateOptions } from './run/evaluate.ts'

// The report contract (reports/latest.json) and the gate's verdict.
export type { Report, QuestionOutcome, Summary } from './contract/report-schema.ts'
export type { GateResult, Regression } from './contract/gate-schema.ts'

// The metrics, one pure function each (definitions in their doc comments and in DESIGN.md).
export { contextHit } from './scoring/retrieval/context-hit.ts'
export { reciprocalRank } from './scoring/retrieval/reciprocal-rank.ts'
export { ndcgAt10, docNdcgAt10, gradedNdcgAt10, gradedDocNdcgAt10 } from './scoring/retrieval/ndcg-at-10.ts'
export { gradesOf, relevantDocIds } from './scoring/retrieval/graded-relevance.ts'
export { recallAtK } from './scoring/retrieval/recall-at-k.ts'
export { lexicalFaithfulness, lexicalAnswerRelevancy, goldCoverage } from './judge/offline-judge.ts'
export { detectRefusal } from './scoring/generation/refusal.ts'
