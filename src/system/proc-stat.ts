import { readdirSync, readFileSync } from 'node:fs'

/** /proc/<pid>/stat's state letter (Z: zombie), parent and group; null when the process or /proc is absent. */
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
