// A benchmark of this repository (`pnpm bench:<name>`) runs as a script, with the bin's argument parser and exit codes.
import type { Command } from '../../src/cli/command.ts'
import { processIo, redacted, runCommand } from '../../src/cli/run-cli.ts'

/** Runs `command` on the script's arguments; a leading `--config <file>` names the project's config, as `rag-eval --config` does. */
export async function runBench(name: string, command: Command): Promise<void> {
  const argv = process.argv.slice(2)
  const config = argv[0] === '--config' ? argv[1] : undefined
  const args = config === undefined ? argv : argv.slice(2)
  const io = redacted(processIo())
  process.exitCode = await runCommand(`bench:${name}`, () => command.main(args, { ...io, config }), io)
}
