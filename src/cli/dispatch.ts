import { file } from './arg-kinds.ts'
import { parseValue, UsageError } from './args.ts'
import type { Command } from './command.ts'
import { processIo, redacted, runCommand, type Io } from './run-cli.ts'

/**
 * The rag-eval subcommands. Each module is imported only when its subcommand runs, so `rag-eval trec`
 * does not load the evaluation pipeline. A new subcommand is one more entry.
 */
interface Subcommand {
  /** One word, or a group and a word (`golden check`). */
  readonly name: string
  readonly summary: string
  readonly load: () => Promise<{ command: Command }>
  /** Arguments put before the user's: `retrieval` is `eval --tier retrieval`. */
  readonly prepend?: readonly string[]
}

const evalCommand = () => import('./eval.ts')

export const SUBCOMMANDS: readonly Subcommand[] = [
  {
    name: 'init',
    summary: 'scaffold the evaluation in this folder (config, golden set, system stub, vitest.config.ts)',
    load: () => import('./init.ts'),
  },
  { name: 'eval', summary: 'the evaluation without Vitest: reports, GATE=1 exit code', load: evalCommand },
  {
    name: 'retrieval',
    summary: 'eval --tier retrieval: the per-commit tier',
    load: evalCommand,
    prepend: ['--tier', 'retrieval'],
  },
  {
    name: 'golden check',
    summary: 'lint a golden set against its corpus',
    load: () => import('./golden-check.ts'),
  },
  {
    name: 'golden import',
    summary: 'convert a golden set from JSONL, RAGAS or TREC',
    load: () => import('./golden-import.ts'),
  },
  {
    name: 'golden export',
    summary: 'write the golden set as JSONL, RAGAS or TREC',
    load: () => import('./golden-export.ts'),
  },
  {
    name: 'golden add',
    summary: 'append one question, previewing its ranking',
    load: () => import('./golden-add.ts'),
  },
  {
    name: 'golden draft',
    summary: 'draft a first golden set with the model: typed, tied to documents, for review',
    load: () => import('./golden-draft.ts'),
  },
  {
    name: 'golden verify',
    summary: 'check candidate questions (drafts, imports): a kept / rejected / undecided verdict each, with reasons',
    load: () => import('./golden-verify.ts'),
  },
  {
    name: 'golden harvest',
    summary: 'golden candidates from production questions (logs, OTel spans, Phoenix/LangSmith exports), redacted',
    load: () => import('./golden-harvest.ts'),
  },
  {
    name: 'golden review',
    summary: 'walk the kept drafts on a terminal: accept, edit, reject; accepted ones appended with provenance',
    load: () => import('./golden-review.ts'),
  },
  {
    name: 'golden schema',
    summary: 'regenerate the golden set JSON Schema',
    load: () => import('./write-golden-schema.ts'),
  },
  {
    name: 'attacks',
    summary: 'plant pages carrying injected instructions, with the attack questions every run then asks',
    load: () => import('./attacks.ts'),
  },
  {
    name: 'trec',
    summary: 'trec_eval-conformant evaluation of a TREC run against qrels',
    load: () => import('./trec.ts'),
  },
  {
    name: 'trec-export',
    summary: "a report's qrels and run in TREC format",
    load: () => import('./trec-export.ts'),
  },
  {
    name: 'export',
    summary: 'a run as RAGAS samples, to score the same answers with RAGAS',
    load: () => import('./export.ts'),
  },
  {
    name: 'label',
    summary: 'label a sample of answers by hand to calibrate the judge',
    load: () => import('./label.ts'),
  },
  {
    name: 'compare',
    summary: 'run B against run A, question by question: deltas, intervals, p-values',
    load: () => import('./compare.ts'),
  },
  {
    name: 'refusal-tradeoff',
    summary: 'refusal threshold against refusal rates',
    load: () => import('./refusal-tradeoff.ts'),
  },
  {
    name: 'model-server',
    summary: 'the local scripted Messages API server',
    load: () => import('./model-server.ts'),
  },
  {
    name: 'record-scripted',
    summary: 're-record the golden set from the scripted server',
    load: () => import('./record-scripted.ts'),
  },
]

const USAGE = 'usage: rag-eval [--config <file>] <command> [options]    (rag-eval <command> --help: its options)'

function commandList(subcommands: readonly Subcommand[]): string {
  const width = Math.max(...subcommands.map((s) => s.name.length))
  return `commands:\n${subcommands.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join('\n')}\n`
}

/** The global options before the subcommand (--config, --help) and the rest, from the subcommand's name on. */
function splitGlobal(argv: readonly string[]): { config: string | undefined; help: boolean; rest: string[] } {
  let config: string | undefined
  let help = false
  let i = 0
  for (; i < argv.length && argv[i]!.startsWith('-'); i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') help = true
    else if (arg === '--config' || arg.startsWith('--config=')) {
      const value = arg === '--config' ? argv[++i] : arg.slice('--config='.length)
      if (value === undefined || (arg === '--config' && value.startsWith('-')))
        throw new UsageError('--config: missing value (expected a file)')
      config = parseValue('--config', value, file)
    } else throw new UsageError(`unknown option ${arg.split('=')[0]} (before the command: only --config and --help)`)
  }
  return { config, help, rest: argv.slice(i) }
}

/**
 * `rag-eval [--config <file>] <command> [options]`, resolving to the exit code (2 for a missing or unknown command).
 * Commands read and write only through `io` (the process's, or a test's in-process), redacted of the run's secrets.
 */
export async function ragEval(argv: readonly string[], processOrTest: Io = processIo()): Promise<number> {
  const io = redacted(processOrTest)
  let global: ReturnType<typeof splitGlobal>
  try {
    global = splitGlobal(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.err(`rag-eval: ${error.message}\n${USAGE}\n`)
    return 2
  }
  const [first, second] = global.rest
  const found = SUBCOMMANDS.find((s) => s.name === `${first} ${second}`) ?? SUBCOMMANDS.find((s) => s.name === first)
  if (found === undefined) {
    const group = SUBCOMMANDS.filter((s) => s.name.startsWith(`${first} `))
    const listed = group.length > 0 ? group : SUBCOMMANDS
    if (global.help || (group.length > 0 && (second === '-h' || second === '--help'))) {
      io.out(`${USAGE}\n${commandList(listed)}`)
      return 0
    }
    const problem =
      first === undefined
        ? 'missing command'
        : group.length > 0
          ? `${first}: ${second === undefined ? 'missing command' : `unknown command ${second}`}: ` +
            `expected one of ${group.map((s) => s.name.split(' ')[1]).join(', ')}`
          : `unknown command ${first}`
    io.err(`rag-eval: ${problem}\n${USAGE}\n${commandList(listed)}`)
    return 2
  }
  const args = [...(found.prepend ?? []), ...global.rest.slice(found.name.split(' ').length), ...(global.help ? ['--help'] : [])]
  return runCommand(found.name, async () => (await found.load()).command.main(args, { ...io, config: global.config }), io)
}
