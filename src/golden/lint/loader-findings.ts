import { finding, type Finding, type RuleId } from './finding.ts'

const QUESTION_PROBLEM = /^question (\S+?)(?:, field "([^"]*)")?: ([\s\S]*)$/

/** The rule a loader message belongs to (the loader words each kind of problem in one way). */
function ruleOf(problem: string): RuleId {
  if (/^\d+:\d+: invalid JSON/.test(problem)) return 'invalid-json'
  if (/duplicate id$/.test(problem)) return 'duplicate-id'
  if (/is not a document of the corpus$/.test(problem)) return 'unknown-doc'
  return 'schema'
}

const FIXES: Record<string, string> = {
  'invalid-json': 'fix the JSON syntax at that line and column (a missing comma or quote, a trailing comma)',
  'duplicate-id':
    'give one of the two questions a new id (rag-eval golden add suggests the next free q-NNN); never reuse the id of a deleted question',
  'unknown-doc': "correct the document id (corpus ids are in each document's front matter) or add the document to the corpus",
  schema:
    'change the field as the message says; the $schema of the golden set (evals/golden-set.schema.json in the package) gives editors completion for every field',
}

/**
 * The loader is the linter's first rule: each line of its error (`<file>: question <id>, field "<f>": <why>` or
 * `<file>:<line>:<col>: invalid JSON`) becomes a finding of its rule, in the loader's words.
 */
export function findingsOfLoaderError(message: string, file: string): Finding[] {
  return message.split('\n').map((line) => {
    const problem = line.startsWith(`${file}: `)
      ? line.slice(file.length + 2)
      : line.startsWith(`${file}:`)
        ? line.slice(file.length + 1)
        : line
    const rule = ruleOf(problem)
    const match = QUESTION_PROBLEM.exec(problem)
    if (match === null) return finding(rule, null, rule === 'invalid-json' ? `${file}:${problem}` : problem, FIXES[rule]!)
    const [, id, field, why] = match
    return finding(rule, id!, field === undefined ? why! : `field "${field}": ${why}`, FIXES[rule]!)
  })
}
