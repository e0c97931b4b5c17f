import { readdirSync, readFileSync } from 'node:fs'

/**
 * Liveness and signals for a process or a process group. A zombie (exited, not yet reaped by its parent)
 * still answers kill(pid, 0), and an orphan's zombie may never be reaped in a container whose init does
 * not reap, so where /proc exists (Linux) a zombie counts as gone; elsewhere kill(0) is the answer.
 */

/** State letter, parent pid and process group of a pid from /proc/<pid>/stat; null when unknown. */
function procStat(pid: number): { state: string; group: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', group: Number(fields[2]) }
  } catch {
    return null
  }
}

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
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return true
  }
  return entries.some((entry) => {
    if (!/^\d+$/.test(entry)) return false
    const stat = procStat(Number(entry))
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
