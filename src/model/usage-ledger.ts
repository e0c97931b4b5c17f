import {
  MODEL_ROLES,
  ZERO_ROLE_USAGE,
  type CallLog,
  type ModelRole,
  type RoleUsage,
  type SavedUsage,
} from '../contract/model-usage-schema.ts'
import type { ModelUsage, ResponseSource } from './model-types.ts'

export interface CallRecord {
  /** The question the call was about, and what it did (generate, judge:faithfulness...). */
  subject: string
  purpose: string
  model: string
  role: ModelRole
  source: ResponseSource
  usage: ModelUsage
  /** USD at the table's price (charged for API calls, saved for hits). */
  usd: number
  /** Answered through the Message Batches API (usd at the batch price). */
  batch: boolean
  /** What prompt caching saved on this call (may be negative: a write never read). */
  promptCacheSavedUsd: number
  /** What the batch discount saved on this call. */
  batchSavedUsd: number
  latencyMs: number | null
  retries: number
  /** The response came from a scripted server (now or when it was cached or recorded). */
  scripted: boolean
}

const zeroRole = (): RoleUsage => ({ ...ZERO_ROLE_USAGE })

/** The report's order of model calls: by question, then purpose (run order is not stable). */
export function compareCalls(a: CallLog, b: CallLog): number {
  return a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : a.purpose < b.purpose ? -1 : a.purpose > b.purpose ? 1 : 0
}

/** Adds a response's tokens (input, output, cache reads and writes) into a running total. */
export function addTokens(total: ModelUsage, usage: ModelUsage): void {
  total.inputTokens += usage.inputTokens
  total.outputTokens += usage.outputTokens
  total.cacheReadTokens += usage.cacheReadTokens
  total.cacheWriteTokens += usage.cacheWriteTokens
}

/** USD to 6 decimals (a millionth of a dollar), so small runs do not round to 0. */
export const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6

/** A run's usage per role; cache hits and replays are counted apart, outside cost and latency (would-be cost: savedByCache). */
export class UsageLedger {
  readonly #records: CallRecord[] = []

  add(record: CallRecord): void {
    this.#records.push(record)
  }

  byRole(role: ModelRole): RoleUsage {
    const usage = zeroRole()
    for (const record of this.#records) {
      if (record.role !== role) continue
      if (record.source !== 'api') {
        usage.cacheHits += 1
        continue
      }
      usage.calls += 1
      usage.retries += record.retries
      addTokens(usage, record.usage)
      usage.usd += record.usd
      if (record.batch) usage.batchCalls += 1
      usage.promptCacheSavedUsd += record.promptCacheSavedUsd
      usage.batchSavedUsd += record.batchSavedUsd
    }
    return {
      ...usage,
      usd: roundUsd(usage.usd),
      promptCacheSavedUsd: roundUsd(usage.promptCacheSavedUsd),
      batchSavedUsd: roundUsd(usage.batchSavedUsd),
    }
  }

  savedByCache(): SavedUsage {
    const saved = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 }
    for (const record of this.#records) {
      if (record.source === 'api') continue
      addTokens(saved, record.usage)
      saved.usd += record.usd
    }
    return { ...saved, usd: roundUsd(saved.usd) }
  }

  /** Every call of the run, sorted by question and purpose (run order is not stable). */
  calls(): CallLog[] {
    return this.#records
      .map((r) => ({
        subject: r.subject,
        purpose: r.purpose,
        role: r.role,
        model: r.model,
        source: r.source,
        ...r.usage,
        usd: r.source === 'api' ? roundUsd(r.usd) : 0,
        latencyMs: r.latencyMs === null ? null : Math.round(r.latencyMs * 10) / 10,
        retries: r.retries,
        batch: r.batch,
      }))
      .sort(compareCalls)
  }

  /** True when any response of the run came from a scripted server: its numbers are not a model's. */
  get scripted(): boolean {
    return this.#records.some((r) => r.scripted)
  }

  /** The tokens and USD of a question's calls, a cache hit or a replay at its price (what answering it costs). */
  questionCost(subject: string): { tokens: number; usd: number } {
    const calls = this.#records.filter((record) => record.subject === subject)
    const tokens = calls.reduce(
      (sum, { usage }) => sum + usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
      0,
    )
    return { tokens, usd: roundUsd(calls.reduce((sum, record) => sum + record.usd, 0)) }
  }

  /** Latencies of the role's API calls (cache hits have none). */
  latencies(role: ModelRole): number[] {
    return this.#records.flatMap((r) => (r.role === role && r.source === 'api' && r.latencyMs !== null ? [r.latencyMs] : []))
  }

  /** The report's run.usage block: totals (contract fields first), per role, and what each cache and the batch discount saved. */
  usage() {
    const byRole = Object.fromEntries(MODEL_ROLES.map((role) => [role, this.byRole(role)])) as Record<ModelRole, RoleUsage>
    const sum = (field: keyof RoleUsage) => MODEL_ROLES.reduce((total, role) => total + byRole[role][field], 0)
    return {
      inputTokens: sum('inputTokens'),
      outputTokens: sum('outputTokens'),
      cacheHits: sum('cacheHits'),
      usd: roundUsd(sum('usd')),
      cacheReadTokens: sum('cacheReadTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
      calls: sum('calls'),
      retries: sum('retries'),
      byRole,
      savedByCache: this.savedByCache(),
      savedByPromptCache: {
        cacheReadTokens: sum('cacheReadTokens'),
        cacheWriteTokens: sum('cacheWriteTokens'),
        usd: roundUsd(sum('promptCacheSavedUsd')),
      },
      savedByBatch: { calls: sum('batchCalls'), usd: roundUsd(sum('batchSavedUsd')) },
    }
  }
}
