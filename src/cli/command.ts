import { InputError } from '../contract/input-error.ts'
import {
  parseCommandLine,
  UsageError,
  type CommandContext,
  type OptionSpecs,
  type OptionValues,
  type PositionalSpec,
  type PositionalValues,
} from './args.ts'

/** A rag-eval subcommand: its usage, and its main over the arguments after the subcommand's name. */
export interface Command {
  /** The usage lines (`usage: rag-eval golden check [...]`), printed under every usage mistake. */
  readonly usage: string
  /**
   * Parses `argv` and runs, resolving to the exit code; `--help` only prints the usage. Bad usage and bad input reject
   * with an InputError (the caller prints it, exit 2).
   */
  readonly main: (argv: readonly string[], context: CommandContext) => Promise<number>
}

export interface CommandSpec<O extends OptionSpecs, P extends readonly PositionalSpec<unknown>[]> {
  /** The usage lines, starting `usage: rag-eval <subcommand>`. */
  readonly usage: string
  /** What it does, printed under the usage by --help. */
  readonly description: string
  readonly options: O
  readonly positionals?: P
  /** The command's work, on valid arguments; a UsageError it throws (a rule across options) gets the usage too. */
  readonly run: (args: {
    values: OptionValues<O>
    positionals: PositionalValues<P>
    context: CommandContext
  }) => Promise<number | void>
}

export function defineCommand<O extends OptionSpecs, const P extends readonly PositionalSpec<unknown>[] = []>(
  spec: CommandSpec<O, P>,
): Command {
  const usage = spec.usage.trimEnd()
  return {
    usage,
    main: async (argv, context) => {
      try {
        const parsed = parseCommandLine(argv, spec.options, spec.positionals ?? ([] as unknown as P))
        if (parsed.help) {
          context.out(`${usage}\n${spec.description.trimEnd()}\n`)
          return 0
        }
        return (await spec.run({ values: parsed.values, positionals: parsed.positionals, context })) ?? 0
      } catch (error) {
        if (error instanceof UsageError) throw new InputError(`${error.message}\n${usage}`)
        throw error
      }
    },
  }
}
