import { describe, expect, it } from 'vitest'
import { loadEvalConfig, resolveEvalConfig } from './eval-config.ts'

describe('resolveEvalConfig', () => {
  it('fills defaults and applies environment overrides', () => {
    const config = resolveEvalConfig({ budgetTokens: 600 }, { EVAL_CONTEXT_BUDGET: '120', EVAL_TOP_K: '5', EVAL_JUDGE_MODEL: 'claude-x' }, 'cfg.json')
    expect(config.budgetTokens).toBe(120)
    expect(config.k).toBe(5)
    expect(config.judgeModel).toBe('claude-x')
    expect(config.chunkTokens).toBe(160)
    expect(config.mode).toBe('offline')
  })
  it.each([
    ['0', 'EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got 0)'],
    ['-5', 'EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got -5)'],
    ['lots', 'EVAL_CONTEXT_BUDGET="lots": expected a number'],
  ])('rejects EVAL_CONTEXT_BUDGET=%s naming the variable', (value, message) => {
    expect(() => resolveEvalConfig({}, { EVAL_CONTEXT_BUDGET: value }, 'cfg.json')).toThrow(message)
  })
  it('names the file field when the file holds a bad value', () => {
    expect(() => resolveEvalConfig({ chunkTokens: 100, chunkOverlap: 100 }, {}, 'cfg.json')).toThrow(
      'cfg.json field "chunkOverlap": chunkOverlap must be smaller than chunkTokens (got 100)',
    )
  })
  it('rejects unknown config fields and unknown modes', () => {
    expect(() => resolveEvalConfig({ budget: 5 }, {}, 'cfg.json')).toThrow('cfg.json: unknown config field(s) budget; expected only mode, budgetTokens, k,')
    expect(() => resolveEvalConfig({}, { EVAL_MODE: 'online' }, 'cfg.json')).toThrow('EVAL_MODE: Invalid option: expected one of "offline"|"live"|"replay" (got "online")')
  })
  it('refuses MOCK=1 with the live mode', () => {
    expect(() => resolveEvalConfig({}, { MOCK: '1', EVAL_MODE: 'live' }, 'cfg.json')).toThrow('MOCK=1 forbids network calls but EVAL_MODE is live')
  })
  it('reads the repository config file', () => {
    expect(loadEvalConfig('evals/eval.config.json', {}).budgetTokens).toBe(600)
  })
})
