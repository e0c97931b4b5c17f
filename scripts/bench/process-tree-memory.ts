import { readFileSync } from 'node:fs'
import { procPids, procStat } from '../../src/system/proc-stat.ts'

/** Peak memory of a process tree while it ran: the sum over its processes, and the largest single one. */
export interface TreeMemory {
  /** Highest sum of the tree's resident sets seen at a sample (MB). */
  peakTreeMb: number
  /** Highest resident set of any one process of the tree (its VmHWM, MB): what `/usr/bin/time -f %M` reports. */
  peakProcessMb: number
}

/** `field` of /proc/<pid>/status in kB, or 0 when the process is gone. */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) : 0
  } catch {
    return 0
  }
}

/** The pids of `root` and every descendant, from each process's parent in /proc/<pid>/stat. */
function treeOf(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const pid of procPids() ?? []) {
    // A process gone between the listing and the read has no stat.
    const parent = procStat(pid)?.parent
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const tree: number[] = []
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.pop()!
    tree.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return tree
}

/**
 * Samples the memory of the process tree under `root` every `intervalMs` until stopped (Linux: /proc).
 * A process that ends between two samples keeps the high-water mark of its last sample, so short peaks
 * can be missed by up to one interval's growth. Elsewhere than Linux: null.
 */
export function watchTreeMemory(root: number, intervalMs = 50): { stop: () => TreeMemory | null } {
  const available = procPids() !== null
  const peak: TreeMemory = { peakTreeMb: 0, peakProcessMb: 0 }
  const sample = () => {
    let sum = 0
    for (const pid of treeOf(root)) {
      sum += statusKb(pid, 'VmRSS')
      peak.peakProcessMb = Math.max(peak.peakProcessMb, statusKb(pid, 'VmHWM') / 1024)
    }
    peak.peakTreeMb = Math.max(peak.peakTreeMb, sum / 1024)
  }
  const timer = available ? setInterval(sample, intervalMs) : null
  return {
    stop: () => {
      if (timer === null) return null
      clearInterval(timer)
      return peak
    },
  }
}
