import { spawn } from 'node:child_process'

/**
 * Run with `node -e` (argv: parent pid, group, grace ms): once reparented (the parent died, even by SIGKILL) it
 * stops the group, SIGTERM then SIGKILL; it exits once the group is gone.
 */
const WATCHDOG_PROGRAM = `
const [parent, group, graceMs] = process.argv.slice(1).map(Number);
const groupAlive = () => { try { process.kill(-group, 0); return true } catch (error) { return error.code === 'EPERM' } };
const signal = (name) => { try { process.kill(-group, name) } catch {} };
const watch = setInterval(() => {
  if (!groupAlive()) process.exit(0);
  if (process.ppid === parent) return;
  clearInterval(watch);
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  setInterval(() => {
    if (!groupAlive()) process.exit(0);
    if (Date.now() >= deadline) { signal('SIGKILL'); process.exit(0) }
  }, 100);
}, 250);
`

/**
 * A detached, unreferenced watchdog in a group of its own (so neither a kill of the service's group nor a Ctrl-C
 * reaches it); returns the function that ends it.
 */
export function startWatchdog(group: number, graceMs: number): () => void {
  const watchdog = spawn(process.execPath, ['-e', WATCHDOG_PROGRAM, String(process.pid), String(group), String(graceMs)], {
    detached: true,
    stdio: 'ignore',
  })
  watchdog.on('error', () => undefined) // best effort: the exit and signal handlers still cover every death but SIGKILL
  watchdog.unref()
  return () => {
    if (watchdog.pid !== undefined && watchdog.exitCode === null) {
      try {
        process.kill(watchdog.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  }
}
