import { readdirSync, readFileSync } from 'node:fs'

/**
 * What /proc/<pid>/stat says of a process (Linux): its state letter (Z: a zombie), parent and process group; null
 * when the process is gone or /proc does not exist.
 */
export function procStat(pid: number): { state: string; parent: number; group: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0] ?? '', parent: Number(fields[1]), group: Number(fields[2]) }
  } catch {
    return null
  }
}

/** The pids /proc lists; null where there is no /proc (not Linux). */
export function procPids(): number[] | null {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
  } catch {
    return null
  }
}
