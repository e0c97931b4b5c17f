import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema } from '../../contract/golden-set-schema.ts'
import { lintGoldenSet } from './lint-golden-set.ts'

const probe = (id: string, tenant: string) =>
  GoldenQuestionSchema.parse({
    id,
    type: 'none',
    question: 'What is the Acme escalation phone line?',
    answerDocIds: [],
    userContext: { tenant },
    probeDocIds: ['tenants/acme/support'],
  })
const mayRead = (userContext: Record<string, unknown>, docId: string) => docId.split('/')[1] === userContext.tenant

describe('cross-tenant probes in golden:check', () => {
  it('a probe its asker may read is an error; one asked by another tenant passes, and is never none-too-easy', () => {
    const questions = [probe('p-1', 'globex'), probe('p-2', 'acme')]
    const findings = lintGoldenSet({
      questions,
      docs: [],
      bestChunks: new Map([['p-1', null]]),
      floors: { single: 0, multi: 0, contradiction: 0, none: 0 },
      mayRead,
    })
    expect(findings.map((f) => [f.rule, f.questionId, f.message])).toEqual([
      [
        'probe-readable',
        'p-2',
        'tenants/acme/support is readable by its asker {"tenant":"acme"} (the access rule), so the probe tests no permission',
      ],
    ])
  })

  it('a probe is a none question with a userContext', () => {
    const result = GoldenQuestionSchema.safeParse({ ...probe('p-3', 'globex'), userContext: undefined })
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['probeDocIds', 'a cross-tenant probe is a none question with a userContext: the asker must get a refusal'],
    ])
  })
})
