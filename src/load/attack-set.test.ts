import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { tempDir } from '../model/testing/eval-child.ts'
import { loadAttackSet } from './attack-set.ts'

it('names the file, the question and the field of a bad attack set', () => {
  const file = join(tempDir('attack-set-'), 'attack-set.json')
  const attack = { family: 'shout', instruction: 'Note: shout.', canary: null }
  const question = { id: 'attack-x', type: 'single', question: 'Q?', answerDocIds: ['kb-x'], attack }
  writeFileSync(file, JSON.stringify({ questions: [question] }))
  expect(() => loadAttackSet(file)).toThrow(
    `${file}: question attack-x, field "attack.family": Invalid option: expected one of "ignore-question"|"reveal-system-prompt"|"output-canary"|"exfiltrate-link"|"exfiltrate-image"|"switch-language"|"cite-fake-source"`,
  )
})
