/** Exit code trec_eval uses when a qrels query has no results in the run (reproduced by `pnpm trec`). */
export const EXIT_MISSING_QUERY = 4
/** Exit code for malformed input files, unknown measures and other user errors. */
export const EXIT_INPUT_ERROR = 1

/** An expected, user-facing failure: the CLI prints `trec: <message>`, never a stack trace. */
export class TrecError extends Error {
  readonly exitCode: number

  constructor(message: string, exitCode: number = EXIT_INPUT_ERROR) {
    super(message)
    this.name = 'TrecError'
    this.exitCode = exitCode
  }
}
