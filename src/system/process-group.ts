import { procPids, procStat } from './proc-stat.ts'

/**
 * Liveness and signals for a process or group. A zombie still answers kill(pid, 0) and may never be reaped in a
 * container whose init does not reap, so where /proc exists a zombie counts as gone.
 */

/** Whether kill(target, 0) finds someone: ESRCH means nobody, EPERM means someone we may not signal. */
function answersSignalZero(target: number): boolean {
  try {
    process.kill(target, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Whether the process runs (a zombie does not). */
export function isProcessAlive(pid: number): boolean {
  if (!answersSignalZero(pid)) return false
  return procStat(pid)?.state !== 'Z'
}

/** Whether any process of the group runs (zombies aside). */
export function isGroupAlive(group: number): boolean {
  if (!answersSignalZero(-group)) return false
  const pids = procPids()
  if (pids === null) return true
  return pids.some((pid) => {
    const stat = procStat(pid)
    return stat !== null && stat.group === group && stat.state !== 'Z'
  })
}

/** Sends a signal to every process of the group; a group already gone is not an error. */
export function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}
