import { describe, expect, it } from 'vitest'
import { resolveEvalConfig } from './eval-config.ts'

describe('resolveEvalConfig', () => {
  it('fills defaults and applies environment overrides', () => {
    const config = resolveEvalConfig(
      { budgetTokens: 600 },
      { EVAL_CONTEXT_BUDGET: '120', EVAL_TOP_K: '5', EVAL_JUDGE_MODEL: 'claude-x' },
      'cfg.json',
    )
    expect(config.budgetTokens).toBe(120)
    expect(config.k).toBe(5)
    expect(config.judgeModel).toBe('claude-x')
    expect(config.chunkTokens).toBe(160)
    expect(config.mode).toBe('offline')
  })
  it.each([
    ['0', 'EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got 0)'],
    ['-5', 'EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got -5)'],
    ['lots', 'EVAL_CONTEXT_BUDGET="lots": expected a decimal integer such as 600'],
    // Number() would read these as 16, 1000000000 and 12: a knob takes decimal digits only.
    ['0x10', 'EVAL_CONTEXT_BUDGET="0x10": expected a decimal integer such as 600'],
    ['1e9', 'EVAL_CONTEXT_BUDGET="1e9": expected a decimal integer such as 600'],
    [' 12 ', 'EVAL_CONTEXT_BUDGET=" 12 ": expected a decimal integer such as 600'],
    ['1.5', 'EVAL_CONTEXT_BUDGET="1.5": expected a decimal integer such as 600'],
  ])('rejects EVAL_CONTEXT_BUDGET=%s naming the variable', (value, message) => {
    expect(() => resolveEvalConfig({}, { EVAL_CONTEXT_BUDGET: value }, 'cfg.json')).toThrow(message)
  })
  it('relevantGrade: absent unless set (it then means 1), 1..3 from the file or EVAL_RELEVANT_GRADE', () => {
    const unset = resolveEvalConfig({}, {}, 'cfg.json')
    expect('relevantGrade' in unset).toBe(false)
    expect(resolveEvalConfig({ relevantGrade: 2 }, {}, 'cfg.json').relevantGrade).toBe(2)
    expect(resolveEvalConfig({ relevantGrade: 2 }, { EVAL_RELEVANT_GRADE: '3' }, 'cfg.json').relevantGrade).toBe(3)
    expect(() => resolveEvalConfig({}, { EVAL_RELEVANT_GRADE: '4' }, 'cfg.json')).toThrow(
      'EVAL_RELEVANT_GRADE: Too big: expected number to be <=3 (got 4)',
    )
    expect(() => resolveEvalConfig({ relevantGrade: 0 }, {}, 'cfg.json')).toThrow(
      'cfg.json field "relevantGrade": Too small: expected number to be >=1 (got 0)',
    )
  })
  it('reads fractional knobs in decimal notation only', () => {
    expect(resolveEvalConfig({}, { EVAL_TOLERANCE: '0.02' }, 'cfg.json').tolerance).toBe(0.02)
    expect(() => resolveEvalConfig({}, { EVAL_TOLERANCE: '.02' }, 'cfg.json')).toThrow(
      'EVAL_TOLERANCE=".02": expected a decimal number such as 0.5',
    )
    expect(() => resolveEvalConfig({}, { EVAL_TOLERANCE: '2e-2' }, 'cfg.json')).toThrow(
      'EVAL_TOLERANCE="2e-2": expected a decimal number such as 0.5',
    )
  })
  it('reads the judge-calibration knobs: minJudgeAgreement (default 0.8) and judgeCorrection (default none)', () => {
    expect(resolveEvalConfig({}, {}, 'cfg.json')).toMatchObject({ minJudgeAgreement: 0.8, judgeCorrection: 'none' })
    expect(resolveEvalConfig({}, { EVAL_MIN_JUDGE_AGREEMENT: '0.85', EVAL_JUDGE_CORRECTION: 'ppi' }, 'cfg.json')).toMatchObject({
      minJudgeAgreement: 0.85,
      judgeCorrection: 'ppi',
    })
    expect(() => resolveEvalConfig({}, { EVAL_MIN_JUDGE_AGREEMENT: '1.2' }, 'cfg.json')).toThrow(
      'EVAL_MIN_JUDGE_AGREEMENT: Too big: expected number to be <=1 (got 1.2)',
    )
    expect(() => resolveEvalConfig({}, { EVAL_JUDGE_CORRECTION: 'ares' }, 'cfg.json')).toThrow(
      'EVAL_JUDGE_CORRECTION: Invalid option: expected one of "none"|"ppi" (got "ares")',
    )
  })
  it('names the file field when the file holds a bad value', () => {
    expect(() => resolveEvalConfig({ chunkTokens: 100, chunkOverlap: 100 }, {}, 'cfg.json')).toThrow(
      'cfg.json field "chunkOverlap": chunkOverlap must be smaller than chunkTokens (got 100)',
    )
  })
  it('rejects unknown config fields and unknown modes', () => {
    expect(() => resolveEvalConfig({ budget: 5 }, {}, 'cfg.json')).toThrow(
      'cfg.json: unknown config field(s) budget; expected only mode, budgetTokens, k,',
    )
    expect(() => resolveEvalConfig({}, { EVAL_MODE: 'online' }, 'cfg.json')).toThrow(
      'EVAL_MODE: Invalid option: expected one of "offline"|"live"|"record"|"replay" (got "online")',
    )
  })
  it('MOCK=1 turns live into replay and refuses record', () => {
    expect(resolveEvalConfig({}, { MOCK: '1', EVAL_MODE: 'live' }, 'cfg.json').mode).toBe('replay')
    expect(() => resolveEvalConfig({}, { MOCK: '1', EVAL_MODE: 'record' }, 'cfg.json')).toThrow(
      'MOCK=1 forbids network calls but EVAL_MODE is record',
    )
  })
  it('reads the model-tier knobs from the environment', () => {
    const config = resolveEvalConfig(
      {},
      {
        EVAL_TIMEOUT_MS: '500',
        EVAL_MAX_RETRIES: '0',
        EVAL_MAX_JUDGE_ERROR_RATE: '0.1',
        EVAL_CACHE: 'refresh',
        EVAL_RECORDING: 'mine',
      },
      'cfg.json',
    )
    expect(config).toMatchObject({
      timeoutMs: 500,
      maxRetries: 0,
      maxJudgeErrorRate: 0.1,
      cache: 'refresh',
      recording: 'mine',
    })
    expect(resolveEvalConfig({}, {}, 'cfg.json')).toMatchObject({
      timeoutMs: 60_000,
      maxRetries: 4,
      maxJudgeErrorRate: 0.05,
      cache: 'on',
      recording: 'golden-set',
    })
    expect(() => resolveEvalConfig({}, { EVAL_CACHE: 'sometimes' }, 'cfg.json')).toThrow(
      'EVAL_CACHE: Invalid option: expected one of "on"|"off"|"refresh" (got "sometimes")',
    )
    expect(() => resolveEvalConfig({}, { EVAL_RECORDING: '../escape' }, 'cfg.json')).toThrow(
      'EVAL_RECORDING: expected a folder name',
    )
  })
  it('reads the config-only knobs from the file, never from the environment', () => {
    const fromFile = { rankDepth: 30, answerSentences: 2, minFaithfulness: 0.7, minCoverage: 0.4, generatorMaxTokens: 256 }
    const moreFromFile = { judgeMaxTokens: 1024, retryBaseMs: 5, retryMaxMs: 50, bootstrapResamples: 500 }
    const env = {
      EVAL_RANK_DEPTH: '40',
      EVAL_ANSWER_SENTENCES: '5',
      EVAL_MIN_FAITHFULNESS: '0.9',
      EVAL_MIN_COVERAGE: '0.9',
      EVAL_GENERATOR_MAX_TOKENS: '8',
      EVAL_JUDGE_MAX_TOKENS: '8',
      EVAL_RETRY_BASE_MS: '1',
      EVAL_RETRY_MAX_MS: '1',
      EVAL_BOOTSTRAP: '10',
    }
    expect(resolveEvalConfig({ ...fromFile, ...moreFromFile }, env, 'cfg.json')).toMatchObject({ ...fromFile, ...moreFromFile })
  })
  it('reads the money knobs: EVAL_MAX_USD, EVAL_BATCH (1/0, true/false), EVAL_BATCH_POLL_MS', () => {
    expect(resolveEvalConfig({}, {}, 'cfg.json')).toMatchObject({ maxUsd: null, batch: false, batchPollMs: 30_000 })
    expect(resolveEvalConfig({}, { EVAL_MAX_USD: '2.5', EVAL_BATCH: '1', EVAL_BATCH_POLL_MS: '50' }, 'cfg.json')).toMatchObject({
      maxUsd: 2.5,
      batch: true,
      batchPollMs: 50,
    })
    expect(resolveEvalConfig({ batch: true }, { EVAL_BATCH: 'false' }, 'cfg.json').batch).toBe(false)
    expect(() => resolveEvalConfig({}, { EVAL_BATCH: 'yes' }, 'cfg.json')).toThrow(
      'EVAL_BATCH="yes": expected 1 or 0 (true or false)',
    )
    expect(() => resolveEvalConfig({}, { EVAL_MAX_USD: '0' }, 'cfg.json')).toThrow(
      'EVAL_MAX_USD: Too small: expected number to be >0 (got 0)',
    )
  })
})
