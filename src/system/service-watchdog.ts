import { spawn } from 'node:child_process'

/**
 * The program of the watchdog (run with `node -e`; argv: parent pid, group, grace ms). Every 250 ms it
 * checks its parent: once the parent is gone (it was reparented: the parent died, even by SIGKILL,
 * when no handler of ours can run), it sends SIGTERM to the service's group, then SIGKILL after the
 * grace period, and exits. It also exits as soon as the group is gone.
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
 * Starts the watchdog of a service's process group: a detached `node -e` process in a group of its own
 * (so neither a kill of the service's group nor a Ctrl-C to ours reaches it), unreferenced so that it
 * never keeps this process alive. Returns a function that ends it (when the service is stopped normally).
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
