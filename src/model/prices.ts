import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import type { ModelUsage } from './model-types.ts'

/** USD per million tokens of one model: plain input, output, prompt-cache writes and reads. */
export const ModelPriceSchema = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    cacheWrite: z.number().min(0),
    cacheRead: z.number().min(0),
    /** The shortest prefix the model caches; a shorter one is billed as plain input (the API says nothing). */
    cacheMinTokens: z.number().int().min(0).optional(),
    /** Where the figure comes from, or why it is assumed. */
    note: z.string().optional(),
  })
  .strict()
export type ModelPrice = z.infer<typeof ModelPriceSchema>

/** evals/model-prices.json, the one place prices live; a dated snapshot id also matches its undated key. */
export const PriceTableSchema = z
  .object({
    $comment: z.string().optional(),
    unit: z.literal('USD per million tokens'),
    /** Multiplies every price of a Message Batches API call (EVAL_BATCH=1): 0.5, half price. */
    batchFactor: z.number().positive().max(1).default(0.5),
    models: z.record(z.string().min(1), ModelPriceSchema),
  })
  .strict()
export type PriceTable = z.infer<typeof PriceTableSchema>

/** The price table in `file` (the project's `prices`, or the package's own); an InputError names what is wrong. */
export function loadPriceTable(file: string): PriceTable {
  return readJsonFile(file, PriceTableSchema, 'the model price table (USD per million tokens; config field `prices`)')
}

/** The price of a model: its exact id, else the longest key it is a dated snapshot of; null when unknown. */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  const exact = table.models[model]
  if (exact) return exact
  const candidates = Object.keys(table.models)
    .filter((key) => model.startsWith(`${key}-`) && /^\d{8}$/.test(model.slice(key.length + 1)))
    .sort((a, b) => b.length - a.length)
  return candidates[0] === undefined ? null : table.models[candidates[0]]!
}

/** Checks every model the run will call has a price, naming the file to edit otherwise. */
export function assertPriced(table: PriceTable, models: readonly string[], file: string): void {
  const missing = [...new Set(models)].filter((model) => priceOf(table, model) === null)
  if (missing.length > 0) {
    throw new InputError(
      `${file}: no price for ${missing.join(', ')}; add USD per million tokens (input, output, ` +
        `cacheWrite, cacheRead) for it so the run can report its cost`,
    )
  }
}

/** USD of one response's usage; `factor` is the table's batchFactor for a Message Batches call, else 1. */
export function costUsd(price: ModelPrice, usage: ModelUsage, factor = 1): number {
  return (
    (factor *
      (usage.inputTokens * price.input +
        usage.outputTokens * price.output +
        usage.cacheWriteTokens * price.cacheWrite +
        usage.cacheReadTokens * price.cacheRead)) /
    1_000_000
  )
}

/** Cache reads' saving less cache writes' premium over plain input: negative when a written prefix was never read. */
export function promptCacheSavingsUsd(price: ModelPrice, usage: ModelUsage, factor = 1): number {
  return (
    (factor *
      (usage.cacheReadTokens * (price.input - price.cacheRead) - usage.cacheWriteTokens * (price.cacheWrite - price.input))) /
    1_000_000
  )
}

/** Documented minimum when the table gives none (Sonnet 4.x, Opus 4 and 4.1: 1,024 tokens). */
export const DEFAULT_CACHE_MIN_TOKENS = 1024

/** The shortest prefix a model caches (the table's cacheMinTokens, else 1,024). */
export function cacheMinTokens(table: PriceTable, model: string): number {
  return priceOf(table, model)?.cacheMinTokens ?? DEFAULT_CACHE_MIN_TOKENS
}

/** The package's own price table (shipped beside src/ and dist/), used unless the project names one (config `prices`). */
export const PACKAGE_PRICES_FILE = fileURLToPath(new URL('../../evals/model-prices.json', import.meta.url))
