import { spawn, spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { chromium, type Browser, type Page } from '@playwright/test'
import { z } from 'zod'
import { stopChild } from '../e2e/web-host-process'

/** What bench:ui and bench/ui-profile.ts share: the build, the browser and the scroll measure. */
const ROOT = resolve(import.meta.dirname, '..')

/** Builds the app (electron-vite build) unless the caller was told not to. */
export function buildApp(log: (m: string) => void): void {
  log('building (electron-vite build)…')
  const built = spawnSync(join(ROOT, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (built.status !== 0) throw new Error('electron-vite build failed')
}

/**
 * Debian's Chromium with its frame-rate limit off, so a frame takes as long as its work
 * (script, style, layout, paint), not the display's 16.7 ms tick.
 */
export function launchBenchBrowser(options: { headless?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: options.headless ?? true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-frame-rate-limit',
      '--disable-gpu-vsync',
      '--disable-background-timer-throttling',
    ],
  })
}

/**
 * Scrolls the transactions list 400 px per frame through every row and back for `frames`
 * frames; answers each frame's time (ms). A string, not a function: tsx would wrap a
 * function's inner helpers in its own `__name`, which does not exist in the page.
 */
const SCROLL_SCRIPT = `(async () => {
  const el = document.querySelector('[role="table"][aria-label="Transactions"] .scroller')
  if (!el) throw new Error('no transaction list scroller')
  el.scrollTop = 0
  const out = []
  let last = 0
  let dir = 1
  let n = 0
  await new Promise((done) => {
    const tick = (t) => {
      if (last) out.push(t - last)
      last = t
      el.scrollTop += 400 * dir
      if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) dir = -1
      else if (el.scrollTop <= 0) dir = 1
      if (++n < FRAME_COUNT) requestAnimationFrame(tick)
      else done()
    }
    requestAnimationFrame(tick)
  })
  return out
})()`

export async function scrollFrames(page: Page, frames: number): Promise<number[]> {
  return z.array(z.number()).parse(await page.evaluate(SCROLL_SCRIPT.replace('FRAME_COUNT', String(frames))))
}

/**
 * In the page, the user's view of first rows: from the Transactions tab's pointerdown (the
 * event's own time) to the end of the frame that first shows a row. A string, like
 * SCROLL_SCRIPT.
 */
const FIRST_ROWS_IN_PAGE = `(() => {
  const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent.trim() === 'Transactions')
  if (!tab) throw new Error('no Transactions tab')
  window.__firstRowsDone = new Promise((resolve) => { window.__firstRowsResolve = resolve })
  tab.addEventListener('pointerdown', (e) => {
    const t0 = e.timeStamp
    window.__firstRowsT0 = t0
    // Shown, not only in the document: a row the user cannot see yet does not count.
    const seen = () => document.querySelector('[role="table"][aria-label="Transactions"] .scroller [role="row"]')?.checkVisibility() === true
    const done = () => requestAnimationFrame(() => setTimeout(() => { window.__firstRowsInPage = performance.now() - t0; window.__firstRowsResolve() }, 0))
    if (seen()) return done()
    const mo = new MutationObserver(() => { if (seen()) { mo.disconnect(); done() } })
    mo.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'class'] })
  }, { once: true, capture: true })
})()`

/**
 * What FIRST_ROWS_IN_PAGE saw, once it has (the driver may find the row before the frame that
 * shows it has ended; at most 5 s), and the bridge calls made since the pointerdown (resource
 * timing).
 */
const FIRST_ROWS_REPORT = `(async () => {
  await Promise.race([window.__firstRowsDone, new Promise((resolve) => setTimeout(resolve, 5000))])
  return {
    ms: window.__firstRowsInPage,
    calls: performance.getEntriesByType('resource')
      .filter((e) => e.name.includes('/bridge/') && e.startTime >= window.__firstRowsT0)
      .map((e) => ({ sent: Math.round(e.startTime - window.__firstRowsT0), answered: Math.round(e.responseEnd - e.startTime), kb: Math.round(e.transferSize / 1024) })),
  }
})()`

/**
 * Starts the page's own first-rows measure (FIRST_ROWS_IN_PAGE); call it before clicking the
 * Transactions tab, then `firstRowsInPage` once the driver has found the first row.
 */
export async function watchFirstRows(page: Page): Promise<void> {
  await page.evaluate(FIRST_ROWS_IN_PAGE)
}

const firstRowsReport = z.object({
  ms: z.number().optional(),
  calls: z.array(z.object({ sent: z.number(), answered: z.number(), kb: z.number() })),
})

/** A log line: the page's first-rows time and the bridge calls made since the tab's pointerdown. */
export async function firstRowsInPage(page: Page): Promise<string> {
  const r = firstRowsReport.parse(await page.evaluate(FIRST_ROWS_REPORT))
  const calls = r.calls.map((c) => `sent at ${c.sent} ms, answered in ${c.answered} ms (${c.kb} KB)`).join('; ')
  const ms =
    r.ms === undefined ? 'not measured (no row shown within 5 s of the driver finding one)' : `${Math.round(r.ms)} ms`
  return `first rows in the page: ${ms} from the tab's pointerdown to the end of the frame that shows them; bridge calls: ${calls || 'none'} (the driver's first rows also count its locating the tab, actionability checks and round trips)`
}

/**
 * Stops "Load all" if it still runs. It may finish on its own between the look and the click
 * (the last page arriving): then there is nothing left to stop.
 */
export async function stopLoadingAll(page: Page): Promise<void> {
  const cancel = page.getByRole('button', { name: 'Cancel loading' })
  if (!(await cancel.isVisible())) return
  await cancel.click({ timeout: 5000 }).catch(async (error: unknown) => {
    if (await cancel.isVisible()) throw error
  })
}

/**
 * What a benchmark started, stopped newest first whatever failed on the way: a web host that
 * does not start must not leave its sandbox and chains behind.
 */
export class Cleanup {
  readonly #steps: (() => unknown)[] = []
  #running: Promise<void> | null = null

  /**
   * Also on a signal (Ctrl-C, kill) and when the output's reader goes away (`| head`): Node
   * would otherwise exit at once, on the signal or on the write's EPIPE, without running the
   * `finally` that stops the chains. For a benchmark's process, which it then ends.
   */
  stopOnSignals(): this {
    for (const stream of [process.stdout, process.stderr])
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error
      })
    // Every signal is handled, not once: a second one (tsx passes the terminal's Ctrl-C on to
    // the script, which has had it already) would otherwise end the process mid-cleanup.
    let stopping = false
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
      ['SIGHUP', 129],
    ] as const)
      process.on(signal, () => {
        if (stopping) return
        stopping = true
        void this.run().finally(() => process.exit(code))
      })
    return this
  }

  /** A step to run at the end; once the end has begun (a signal during start-up), at once. */
  add(step: () => unknown): void {
    if (this.#running) this.#running = this.#running.then(() => Cleanup.#runStep(step))
    else this.#steps.push(step)
  }

  /**
   * Runs every step once, newest first. A second call (a signal, then the failing run's
   * `finally`) waits for the same steps, and for any added meanwhile.
   */
  async run(): Promise<void> {
    this.#running ??= (async () => {
      for (const step of this.#steps.splice(0).reverse()) await Cleanup.#runStep(step)
    })()
    let seen: Promise<void> | null
    do {
      seen = this.#running
      await seen
    } while (seen !== this.#running)
  }

  static async #runStep(step: () => unknown): Promise<void> {
    try {
      await step()
    } catch (error: unknown) {
      process.stderr.write(`cleanup: ${error instanceof Error ? error.message : String(error)}\n`)
    }
  }
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

/**
 * A sleeper that wakes every 10 ms and prints each wake-up at least LATE_MS late: "<start> <gap>"
 * (ms). It ends when its stdin closes: when the benchmark that started it is gone, however it went.
 */
const SLEEPER = `const LATE_MS = Number(process.argv[1]); let last = Date.now()
setInterval(() => { const now = Date.now(); if (now - last - 10 >= LATE_MS) process.stdout.write(last + ' ' + (now - last) + '\\n'); last = now }, 10)
process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume()`

/** The spans in which the sleeper was not run (Date.now() times), that overlap a measured span. */
export interface Stalls {
  spans: { start: number; end: number }[]
  /** The longest, in ms (0 for none). */
  longestMs: number
}

/**
 * Whether the benchmark's processes were run at all while it measured: a separate process that
 * sleeps 10 ms at a time and reports every wake-up `lateMs` or more late. The kernel wakes a
 * sleeper within a few ms even with both cores busy (it favours a task that slept), so a late
 * wake-up means that nothing of ours was run then: on this VM the web host, the sandbox and an
 * idle process stalled together, for 0.5-2.4 s now and then, and a first-rows run that met such
 * a stall took 1-2.4 s instead of about 0.2 s. A run whose measure overlaps a stall is not
 * quiet; bench:ui says so beside its numbers and never leaves the run out.
 */
export class StallWatch {
  readonly #child: ReturnType<typeof spawn>
  readonly #lateMs: number
  readonly #stalls: { start: number; end: number }[] = []
  readonly #failed: Promise<never>

  /** Starts the sleeper; register `stop` at once, then wait for `started`. */
  constructor(lateMs = 30) {
    this.#lateMs = lateMs
    this.#child = spawn(process.execPath, ['-e', SLEEPER, String(lateMs)], { stdio: ['pipe', 'pipe', 'ignore'] })
    this.#failed = new Promise<never>((_resolve, reject) => {
      this.#child.once('error', (error) => reject(new Error(`the stall watch did not start: ${error.message}`)))
      this.#child.once('exit', (code, signal) =>
        reject(new Error(`the stall watch ended (${signal ?? `exit code ${code}`})`)),
      )
    })
    // Only `started` reports these; once it has, a late failure must not be an unhandled rejection.
    this.#failed.catch(() => undefined)
    createInterface({ input: this.#child.stdout! }).on('line', (line) => {
      const [start, gap] = line.split(' ').map(Number)
      if (Number.isFinite(start) && Number.isFinite(gap)) this.#stalls.push({ start: start!, end: start! + gap! })
    })
  }

  /** Resolves once the sleeper has run for 100 ms (its first wake-ups cannot be told from its start-up). */
  async started(): Promise<void> {
    await Promise.race([this.#failed, new Promise((r) => setTimeout(r, 100))])
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  /**
   * The stalls that overlap [from, to] (Date.now() times). Waits a little first: a stall that
   * ended just before `to` is reported by the sleeper as it wakes, which may come after the
   * measure has ended.
   */
  async between(from: number, to: number): Promise<Stalls> {
    await new Promise((r) => setTimeout(r, this.#lateMs + 30))
    const spans = this.#stalls.filter((s) => s.end > from && s.start < to)
    return { spans, longestMs: Math.max(0, ...spans.map((s) => s.end - s.start)) }
  }

  /** For a log line: "none", or how many and the longest. */
  static describe(stalls: Stalls): string {
    return stalls.spans.length === 0 ? 'none' : `${stalls.spans.length}, the longest ${stalls.longestMs} ms`
  }

  stop(): Promise<void> {
    this.#child.stdin?.end()
    return stopChild(this.#child)
  }
}

/** PF_KTHREAD in /proc/<pid>/stat's flags: the task is a kernel thread. */
const PF_KTHREAD = 0x00200000
/** Linux's clock tick for /proc times (USER_HZ), 100 on every architecture Chromium runs on here. */
const TICK_MS = 10

/**
 * CPU time (ms) that the kernel's own threads have used since boot, from `proc` (/proc), or null
 * where there is none. Read before and after a measure: on this VM the kernel now and then spends
 * most of a core reporting freed memory to its host (virtio-balloon free page reporting, seen in
 * a kernel worker's stack), 1-2.4 s of CPU during a 4 s scroll, and the scroll's frames are then
 * slower for reasons outside the app.
 */
export function kernelThreadsCpuMs(proc = '/proc'): number | null {
  let pids: string[]
  try {
    pids = readdirSync(proc).filter((d) => /^\d+$/.test(d))
  } catch {
    return null
  }
  let ms = 0
  for (const pid of pids) {
    let stat: string
    try {
      stat = readFileSync(join(proc, pid, 'stat'), 'utf8')
    } catch {
      continue // Gone since the listing.
    }
    const task = parseTaskStat(stat)
    if ((task.flags & PF_KTHREAD) !== 0) ms += task.cpuMs
  }
  return ms
}

/**
 * A task's name, flags and CPU time (ms: user and system) from its /proc `stat` line. The name
 * may hold spaces and parentheses: the fields are counted from its last `)`, after which come
 * state, ppid, … flags (the 7th), … utime (the 12th) and stime (the 13th).
 */
export function parseTaskStat(stat: string): { name: string; flags: number; cpuMs: number } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    flags: Number(fields[6]),
    cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
  }
}
