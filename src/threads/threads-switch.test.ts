import { describe, expect, it } from 'vitest'
import { InputError } from '../contract/input-error.ts'
import { threadsEnabled } from './threads-switch.ts'

describe('threadsEnabled (RAG_EVAL_THREADS)', () => {
  it('is on unless the variable is 0', () => {
    expect(threadsEnabled({})).toBe(true)
    expect(threadsEnabled({ RAG_EVAL_THREADS: '' })).toBe(true)
    expect(threadsEnabled({ RAG_EVAL_THREADS: '1' })).toBe(true)
    expect(threadsEnabled({ RAG_EVAL_THREADS: '0' })).toBe(false)
  })

  it('names the variable and the values it takes for anything else', () => {
    expect(() => threadsEnabled({ RAG_EVAL_THREADS: 'off' })).toThrow(
      new InputError('RAG_EVAL_THREADS must be 0 (one thread) or 1 (helper threads, the default), got "off"'),
    )
  })
})
