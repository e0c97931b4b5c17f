import { ragEval } from '../dispatch.ts'

/** What a rag-eval run printed and exited with, the same fields in-process as from a child (src/testing/rag-eval-child.ts). */
export interface RagEvalResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * `rag-eval <args>` in this process through the bin's dispatcher, with the given environment and folder
 * (by default this process's) and no terminal: what the bin does but its process, so a test needs no child.
 * Each command keeps one test that spawns the bin itself (src/testing/rag-eval-child.ts).
 */
export async function ragEvalInProcess(
  args: readonly string[],
  io: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<RagEvalResult> {
  let stdout = ''
  let stderr = ''
  const code = await ragEval(args, {
    out: (text) => (stdout += typeof text === 'string' ? text : Buffer.from(text).toString('utf8')),
    err: (text) => (stderr += text),
    env: io.env ?? process.env,
    cwd: io.cwd ?? process.cwd(),
    terminal: false,
  })
  return { code, stdout, stderr }
}
