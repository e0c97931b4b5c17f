// This repository evaluates its own built-in system through the same config file a user writes.
// Every knob also has an environment override (README, "Knobs").
// The package's light config entry (rag-vitest-eval/config): loading this file does not load the library.
import { defineConfig } from './src/config/define-config.ts'

export default defineConfig({
  corpus: 'corpus',
  goldenSet: 'evals/golden-set.json',
  baseline: 'baseline',
  humanLabels: 'evals/human-labels.json',
  prices: 'evals/model-prices.json',
  recordingsDir: 'fixtures/recordings',
  system: 'builtin',

  mode: 'offline',
  budgetTokens: 600,
  k: 10,
  rankDepth: 50,
  chunkTokens: 160,
  chunkOverlap: 32,
  // BM25 as Lucene scores it, possessives dropped, the heading path as a title field (docs/comparing.md).
  retrieval: { kind: 'bm25', coordination: false, k1: 1.2, b: 0.75, delta: 0, possessives: true, titleWeight: 1, rrfK: 60 },
  tokenizer: 'o200k_base',
  generatorModel: 'claude-sonnet-5',
  judgeModel: 'claude-haiku-4-5-20251001',
  tolerance: 0.01,
  concurrency: 4,
  refusalThreshold: 0.5,
  answerSentences: 3,
  minFaithfulness: 0.8,
  minCoverage: 0.5,
  generatorMaxTokens: 1024,
  judgeMaxTokens: 2048,
  timeoutMs: 60000,
  maxRetries: 4,
  retryBaseMs: 500,
  retryMaxMs: 60000,
  maxJudgeErrorRate: 0.05,
  maxSystemErrorRate: 0,
  cache: 'on',
  maxUsd: null,
  batch: false,
  batchPollMs: 30000,
  recording: 'golden-set',
})
