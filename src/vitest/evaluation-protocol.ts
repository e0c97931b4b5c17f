import { z } from 'zod'
import { ReportSchema } from '../contract/report-schema.ts'

/**
 * The messages between the eval project's global setup and the evaluation worker it forks. The report
 * travels over the IPC channel tagged with the run id the parent chose, so the parent can never read a
 * stale report file left by an earlier run.
 */
export const WorkerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('report'),
    runId: z.string(),
    report: ReportSchema,
    terminalSummary: z.string().nullable(),
    reportsDir: z.string(),
    baselineRoot: z.string(),
    projectRoot: z.string(),
  }),
  z.object({ type: z.literal('failed'), runId: z.string(), error: z.string() }),
])
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>

/** What the parent tells the worker (through its environment): which config, which run, which options inline. */
export const WORKER_ENV = {
  runId: 'RAG_EVAL_RUN_ID',
  configFile: 'RAG_EVAL_CONFIG',
  inline: 'RAG_EVAL_INLINE_OPTIONS',
  /** 'compare': the B side of EVAL_COMPARE, measured only (no baseline, no reports written). */
  role: 'RAG_EVAL_WORKER_ROLE',
  /** vitest --shard=i/n: `i/n`, the shard whose questions the worker measures; '' for the whole golden set. */
  shard: 'RAG_EVAL_SHARD',
} as const
