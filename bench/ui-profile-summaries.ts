import { readdirSync, readFileSync } from 'node:fs'
import { parseTaskStat } from './ui-support'

/** What bench/ui-profile.ts prints of V8's profiles and Chromium's threads: self time, CPU time, allocations. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

/** Self and total time (ms) per function, from a V8 sampling profile. */
export function summariseProfile(p: CpuProfile, top = 25): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const label = (id: number): string => {
    const f = byId.get(id)!.callFrame
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`
  }
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000
    self.set(label(id), (self.get(label(id)) ?? 0) + dt)
    const seen = new Set<string>()
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const l = label(n)
      if (seen.has(l)) continue
      seen.add(l)
      total.set(l, (total.get(l) ?? 0) + dt)
    }
  })
  const fmt = (m: Map<string, number>): string =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([n, ms]) => `      ${ms.toFixed(1).padStart(8)} ms  ${n}`)
      .join('\n')
  return `    self:\n${fmt(self)}\n    total:\n${fmt(total)}`
}

/**
 * CPU time (ms) of every Chromium thread so far, summed by thread name (digits dropped, so the
 * raster workers count together), from /proc: user and system ticks of 10 ms.
 */
export function chromiumThreadCpuMs(): Map<string, number> {
  const byName = new Map<string, number>()
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!/^(chromium|chrome)/.test(parseTaskStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).name)) continue
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const task = parseTaskStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))
        const name = task.name.replace(/\d+$/, '')
        byName.set(name, (byName.get(name) ?? 0) + task.cpuMs)
      }
    } catch {
      // The process or thread ended between the listing and the read.
    }
  }
  return byName
}

export interface AllocNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  selfSize: number
  children: AllocNode[]
}

/** Bytes allocated per call site (function and its two callers), biggest first. */
export function summariseAllocations(head: AllocNode, top = 25): string {
  const bySite = new Map<string, number>()
  const walk = (n: AllocNode, path: string[]): void => {
    const f = n.callFrame
    const here = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`
    const site = [...path.slice(-2), here].join(' < ')
    bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize)
    for (const c of n.children) walk(c, [...path, here])
  }
  walk(head, [])
  const total = [...bySite.values()].reduce((a, b) => a + b, 0)
  const lines = [...bySite]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([site, bytes]) => `      ${(bytes / 1024).toFixed(0).padStart(7)} KB  ${site}`)
  return [`    total ${(total / 1048576).toFixed(1)} MB`, ...lines].join('\n')
}
