import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'
import { SUBCOMMANDS } from './dispatch.ts'

// The contract every rag-eval subcommand keeps on bad usage, run in-process through the dispatcher (the
// same code path as the bin, without a process per case). None of these cases gets past argument parsing.

async function rag(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const { code, stdout: out, stderr: err } = await ragEvalInProcess(argv)
  return { code, out, err }
}

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
/** Files a command could write by mistake: what --help must leave alone. */
const WATCHED = ['evals/golden-set.schema.json', 'evals/golden-set.json', 'evals/human-labels.json']

interface Contract {
  /** An option of the command given without its value, and the option name the message must start with. */
  missingValue: [argv: string[], option: string]
  /** A folder where a file is expected; the message that must follow `<command>: `. */
  folderForFile?: [argv: string[], message: string]
  /** A file where a folder is expected. */
  fileForFolder?: [argv: string[], message: string]
}

const CONTRACTS: Record<string, Contract> = {
  init: {
    missingValue: [['--dir'], '--dir'],
    fileForFolder: [['--dir', 'README.md'], '--dir README.md: expected a folder, found a file'],
  },
  eval: {
    missingValue: [['--golden'], '--golden'],
    folderForFile: [['--golden', 'evals'], '--golden evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  retrieval: {
    missingValue: [['--out'], '--out'],
    folderForFile: [['--config', 'evals'], '--config evals: expected a file, found a folder'],
    fileForFolder: [['--out', 'README.md'], '--out README.md: expected a folder, found a file'],
  },
  'golden check': {
    missingValue: [['--corpus'], '--corpus'],
    folderForFile: [['--golden', 'evals'], '--golden evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden import': {
    missingValue: [['--format'], '--format'],
    folderForFile: [['evals', '--format', 'jsonl'], '<file> evals: expected a file, found a folder'],
    fileForFolder: [
      ['README.md', '--format', 'jsonl', '--corpus', 'README.md'],
      '--corpus README.md: expected a folder, found a file',
    ],
  },
  'golden export': {
    missingValue: [['--format', 'jsonl', '--out'], '--out'],
    folderForFile: [['--format', 'jsonl', '--out', 'evals'], '--out evals: expected a file, found a folder'],
    fileForFolder: [
      ['--format', 'jsonl', '--out', 'README.md/gold.jsonl'],
      '--out README.md/gold.jsonl: README.md is a file, not a folder',
    ],
  },
  'golden add': {
    missingValue: [['--question'], '--question'],
    folderForFile: [['--golden', 'evals'], '--golden evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden draft': {
    missingValue: [['--count'], '--count'],
    folderForFile: [['--out', 'evals'], '--out evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden verify': {
    missingValue: [['--out'], '--out'],
    folderForFile: [['evals'], '<file> evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden harvest': {
    missingValue: [['--report'], '--report'],
    folderForFile: [['package.json', 'evals'], '<file> evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden review': {
    missingValue: [['--drafts'], '--drafts'],
    folderForFile: [['--drafts', 'evals'], '--drafts evals: expected a file, found a folder'],
    fileForFolder: [['--drafts', 'package.json', '--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
  'golden schema': {
    missingValue: [['--out'], '--out'],
    folderForFile: [['--out', 'evals'], '--out evals: expected a file, found a folder'],
    fileForFolder: [['--out', 'README.md/schema.json'], '--out README.md/schema.json: README.md is a file, not a folder'],
  },
  attacks: {
    missingValue: [['--seed'], '--seed'],
    folderForFile: [['--set', 'evals'], '--set evals: expected a file, found a folder'],
    fileForFolder: [['--out', 'README.md'], '--out README.md: expected a folder, found a file'],
  },
  trec: {
    missingValue: [['-m'], '-m'],
    folderForFile: [['evals', 'README.md'], '<qrels> evals: expected a file, found a folder'],
  },
  'trec-export': {
    missingValue: [['--report'], '--report'],
    folderForFile: [['--report', 'evals'], '--report evals: expected a file, found a folder'],
    fileForFolder: [['--report', 'package.json', '--out', 'README.md'], '--out README.md: expected a folder, found a file'],
  },
  export: {
    missingValue: [['--format', 'ragas', '--contexts'], '--contexts'],
    folderForFile: [['--format', 'ragas', '--report', 'evals'], '--report evals: expected a file, found a folder'],
    fileForFolder: [
      ['--format', 'ragas', '--report', 'package.json', '--out', 'README.md/ragas.jsonl'],
      '--out README.md/ragas.jsonl: README.md is a file, not a folder',
    ],
  },
  label: {
    missingValue: [['--size'], '--size'],
    folderForFile: [['--report', 'evals'], '--report evals: expected a file, found a folder'],
    fileForFolder: [
      ['--report', 'package.json', '--labels', 'README.md/labels.json'],
      '--labels README.md/labels.json: README.md is a file, not a folder',
    ],
  },
  compare: {
    missingValue: [['--b-env'], '--b-env'],
    folderForFile: [['--a', 'evals', '--b', 'package.json'], '--a evals: expected a file, found a folder'],
    fileForFolder: [
      ['--a', 'package.json', '--b', 'package.json', '--out', 'README.md'],
      '--out README.md: expected a folder, found a file',
    ],
  },
  'refusal-tradeoff': { missingValue: [['--step'], '--step'] },
  'model-server': { missingValue: [['--port'], '--port'] },
  'record-scripted': {
    missingValue: [['--recording'], '--recording'],
    folderForFile: [['--golden', 'evals'], '--golden evals: expected a file, found a folder'],
    fileForFolder: [['--corpus', 'README.md'], '--corpus README.md: expected a folder, found a file'],
  },
}

/** A usage error: one line naming the problem, then the command's usage lines, and no stack trace. */
function expectUsageError(result: { code: number; out: string; err: string }, name: string, message: string | RegExp) {
  expect(result.code).toBe(2)
  expect(result.out).toBe('')
  const [first, second] = result.err.split('\n')
  if (typeof message === 'string') expect(first).toBe(`${name}: ${message}`)
  else expect(first).toMatch(message)
  expect(second).toMatch(/^usage: rag-eval /)
  expect(result.err).not.toMatch(/\n\s+at /)
}

describe('every subcommand keeps the usage contract', () => {
  it('the table covers every subcommand', () => {
    expect(Object.keys(CONTRACTS).sort()).toEqual(SUBCOMMANDS.map((s) => s.name).sort())
  })

  describe.each(Object.entries(CONTRACTS))('rag-eval %s', (name, contract) => {
    const words = name.split(' ')

    it('--help and -h print the usage, exit 0 and write nothing', async () => {
      const before = WATCHED.map(hash)
      for (const help of ['--help', '-h']) {
        const result = await rag(...words, help)
        expect(result).toMatchObject({ code: 0, err: '' })
        expect(result.out).toMatch(/^usage: rag-eval /)
      }
      expect(WATCHED.map(hash)).toEqual(before)
    })

    it('--bogus: one line naming it, then the usage, exit 2', async () => {
      expectUsageError(await rag(...words, '--bogus'), name, 'unknown option --bogus')
    })

    it('an option without its value names the option, exit 2', async () => {
      const [argv, option] = contract.missingValue
      expectUsageError(await rag(...words, ...argv), name, new RegExp(`^${name}: ${option}: missing value \\(expected .+\\)$`))
      // Followed by another option, the value is still missing (not taken from the next option).
      expectUsageError(await rag(...words, ...argv, '--help-me'), name, new RegExp(`^${name}: ${option}: missing value`))
    })

    if (contract.folderForFile)
      it('a folder where a file is expected says so, exit 2', async () => {
        const [argv, message] = contract.folderForFile!
        expectUsageError(await rag(...words, ...argv), name, message)
      })

    if (contract.fileForFolder)
      it('a file where a folder is expected says so, exit 2', async () => {
        const [argv, message] = contract.fileForFolder!
        expectUsageError(await rag(...words, ...argv), name, message)
      })
  })
})

describe('rag-eval itself', () => {
  it('--help lists every subcommand, exit 0', async () => {
    const result = await rag('--help')
    expect(result.code).toBe(0)
    expect(result.out.split('\n')[0]).toBe(
      'usage: rag-eval [--config <file>] <command> [options]    (rag-eval <command> --help: its options)',
    )
    for (const s of SUBCOMMANDS) expect(result.out).toContain(`\n  ${s.name} `)
  })

  it('an unknown or missing subcommand: one line, the list, exit 2', async () => {
    const unknown = await rag('evaluate')
    expect(unknown.code).toBe(2)
    expect(unknown.err.split('\n')[0]).toBe('rag-eval: unknown command evaluate')
    expect(unknown.err).toContain('\n  golden check ')
    expect((await rag()).err.split('\n')[0]).toBe('rag-eval: missing command')
    const group = await rag('golden', 'lint')
    expect(group.code).toBe(2)
    expect(group.err.split('\n')[0]).toBe(
      'rag-eval: golden: unknown command lint: expected one of check, import, export, add, draft, verify, harvest, review, schema',
    )
  })

  it('the global --config must be a file, and only --config and --help go before the command', async () => {
    expect((await rag('--config', 'evals', 'eval')).err.split('\n')[0]).toBe(
      'rag-eval: --config evals: expected a file, found a folder',
    )
    expect((await rag('--config')).err.split('\n')[0]).toBe('rag-eval: --config: missing value (expected a file)')
    expect((await rag('--tier', 'full', 'eval')).err.split('\n')[0]).toBe(
      'rag-eval: unknown option --tier (before the command: only --config and --help)',
    )
  })

  it('the global --config reaches the subcommand, whose config loader reads it', async () => {
    // package.json is a file but no config: the loader names it, at its first field.
    const result = await rag(
      '--config',
      'package.json',
      'golden',
      'check',
      '--golden',
      'fixtures/golden-lint/clean.json',
      '--corpus',
      'fixtures/golden-lint/corpus',
    )
    expect(result.code).toBe(2)
    expect(result.err).toMatch(/^golden check: \S*package\.json:2:3 field "name": unknown config field\(s\) name, /)
  })
})

describe('values are checked before anything runs', () => {
  it.each([
    [['refusal-tradeoff', '--step', '0'], '--step 0: expected a positive number'],
    [['refusal-tradeoff', '--from', 'abc'], '--from abc: expected a number from 0 to 1'],
    [['refusal-tradeoff', '--from', '0.8', '--to', '0.5'], '--to 0.5: expected at least --from (0.8)'],
    [['model-server', '--port', '0x10'], '--port 0x10: expected an integer from 0 to 65535'],
    [['label', '--size', '1e2'], '--size 1e2: expected a positive integer'],
    [['refusal-tradeoff', '--step', 'Infinity'], '--step Infinity: expected a positive number'],
    [['retrieval', '--tier', 'fast'], '--tier fast: expected retrieval or full'],
    [
      ['golden', 'check', '--floors', 'single=many'],
      '--floors single=many: expected type=count pairs, e.g. single=50,none=8 (types: single, multi, contradiction, none)',
    ],
    [['golden', 'export', '--out', 'x.jsonl'], 'missing --format (expected one of jsonl, ragas, trec)'],
    [['golden', 'import', '--format', 'jsonl'], 'missing <file> (expected a file)'],
    [['golden', 'import', 'a', 'b', '--format', 'jsonl'], 'unexpected argument b'],
    [['golden', 'add', '--type', 'lookupp'], /^golden add: --type lookupp: .+/],
    [['golden', 'check', '--json=yes'], '--json takes no value (given yes)'],
    [['trec', '-q', '--no-q', 'package.json', 'package.json'], '-q and --no-q are mutually exclusive'],
    [['trec', 'package.json'], 'missing <run> (expected a file)'],
  ])('%j', async (argv, message) => {
    const [first, second] = argv
    const name = SUBCOMMANDS.find((s) => s.name === `${first} ${second}`)?.name ?? first!
    expectUsageError(await rag(...argv), name, message)
  })

  it('golden add --golden with a typo is an error, not a new golden set; --create starts one, folders and all', async () => {
    const typo = 'evals/golden-st.json'
    const result = await rag('golden', 'add', '--golden', typo, '--type', 'none', '--question', 'Q?', '--yes')
    expectUsageError(result, 'golden add', `--golden ${typo}: not found (expected a file)`)
    expect(existsSync(typo)).toBe(false)
    // A file where a folder of the path should be is named; nothing is written.
    const blocked = await rag(
      'golden',
      'add',
      '--create',
      '--golden',
      'package.json/golden-set.json',
      '--type',
      'none',
      '--question',
      'Q?',
      '--yes',
    )
    expectUsageError(blocked, 'golden add', '--golden package.json/golden-set.json: package.json is a file, not a folder')
  })
})
