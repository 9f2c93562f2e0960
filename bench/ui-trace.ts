import type { CDPSession } from '@playwright/test'
import { z } from 'zod'

/** Chromium traces for bench/ui-profile.ts: captured over CDP and summarised per thread and event. */
export interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** Thread (CPU) time: unlike dur, not inflated by other processes taking the cores. */
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string }
}

const traceEventSchema = z.object({
  name: z.string(),
  ph: z.string(),
  ts: z.number(),
  dur: z.number().optional(),
  tdur: z.number().optional(),
  pid: z.number(),
  tid: z.number(),
  args: z.looseObject({ name: z.string().optional() }).optional(),
})

/** The trace categories read; invalidation tracking only when asked for (it is costly). */
function categories(invalidations: boolean): string[] {
  return [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'blink',
    'cc',
    'gpu',
    'viz',
    'toplevel',
    'v8.execute',
    'disabled-by-default-devtools.timeline.frame',
    ...(invalidations ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
  ]
}

/** Chromium's trace events around `run`, read loosely: only the fields summarised here. */
export async function trace(cdp: CDPSession, run: () => Promise<void>, invalidations = false): Promise<TraceEvent[]> {
  const events: TraceEvent[] = []
  // Chromium's trace events, read loosely: only the fields summarised here.
  const onData = (e: { value: object[] }): void => {
    for (const v of e.value) {
      const parsed = traceEventSchema.safeParse(v)
      if (parsed.success) events.push(parsed.data)
    }
  }
  cdp.on('Tracing.dataCollected', onData)
  await cdp.send('Tracing.start', {
    traceConfig: { includedCategories: categories(invalidations) },
    transferMode: 'ReportEvents',
  })
  await run()
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()))
  await cdp.send('Tracing.end')
  await done
  cdp.off('Tracing.dataCollected', onData)
  return events
}

/** Self time (ms) per thread and event name, from complete ('X') and begin/end events. */
export function summarise(events: TraceEvent[], top = 12): string {
  const threadName = new Map<string, string>()
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
  const byThread = new Map<string, { name: string; start: number; end: number; cpu: number }[]>()
  const open = new Map<string, TraceEvent[]>()
  for (const e of events) {
    const k = `${e.pid}:${e.tid}`
    if (e.ph === 'X' && e.dur !== undefined)
      (byThread.get(k) ?? byThread.set(k, []).get(k)!).push({
        name: e.name,
        start: e.ts,
        end: e.ts + e.dur,
        cpu: e.tdur ?? 0,
      })
    else if (e.ph === 'B') (open.get(k) ?? open.set(k, []).get(k)!).push(e)
    else if (e.ph === 'E') {
      const b = open.get(k)?.pop()
      if (b) (byThread.get(k) ?? byThread.set(k, []).get(k)!).push({ name: b.name, start: b.ts, end: e.ts, cpu: 0 })
    }
  }
  const lines: string[] = []
  const rows: { thread: string; total: number; cpu: number; names: [string, number][] }[] = []
  for (const [k, spans] of byThread) {
    spans.sort((a, b) => a.start - b.start || b.end - a.end)
    const self = new Map<string, number>()
    const stack: { name: string; end: number; child: number; start: number }[] = []
    const close = (until: number): void => {
      while (stack.length && stack.at(-1)!.end <= until) {
        const s = stack.pop()!
        const d = s.end - s.start - s.child
        self.set(s.name, (self.get(s.name) ?? 0) + d)
        if (stack.length) stack.at(-1)!.child += s.end - s.start
      }
    }
    let busy = 0
    let cpu = 0
    for (const sp of spans) {
      close(sp.start)
      if (!stack.length) {
        busy += sp.end - sp.start
        cpu += sp.cpu
      }
      stack.push({ ...sp, child: 0 })
    }
    close(Number.POSITIVE_INFINITY)
    const names = [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([n, us]): [string, number] => [n, us / 1000])
    rows.push({ thread: threadName.get(k) ?? k, total: busy / 1000, cpu: cpu / 1000, names })
  }
  rows.sort((a, b) => b.total - a.total)
  for (const r of rows.slice(0, 8)) {
    lines.push(`  ${r.thread}: busy ${r.total.toFixed(1)} ms, cpu ${r.cpu.toFixed(1)} ms`)
    for (const [n, ms] of r.names) if (ms >= 0.5) lines.push(`      ${ms.toFixed(1).padStart(8)} ms  ${n}`)
  }
  return lines.join('\n')
}

/** Invalidation-tracking events counted by kind, reason, element and changed attribute or class. */
export function summariseInvalidations(events: TraceEvent[], top = 30): string {
  const counts = new Map<string, number>()
  for (const e of events) {
    if (!e.name.endsWith('InvalidationTracking')) continue
    const d = (e.args as { data?: Record<string, unknown> } | undefined)?.data ?? {}
    const node = String(d['nodeName'] ?? '')
      .replace(/ data-v-\w+=""/g, '')
      .slice(0, 60)
    const what = String(d['changedAttribute'] ?? d['changedClass'] ?? d['changedPseudo'] ?? '')
    const key = [e.name.replace('InvalidationTracking', ''), String(d['reason'] ?? ''), node, what].join(' | ')
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, n]) => `      ${String(n).padStart(7)}  ${k}`)
    .join('\n')
}
