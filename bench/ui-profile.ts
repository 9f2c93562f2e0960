/**
 * `tsx bench/ui-profile.ts`: where bench:ui's time goes. The same setup and user path as
 * bench/ui.ts, with a Chromium trace around "first rows" and around the scroll, summarised as
 * self time per trace event and thread (script, style, layout, paint, raster, GPU…), and a V8
 * sampling profile of a scroll (JS self time by function), so a fix is aimed at what the frames
 * really spend. Not a benchmark: tracing and sampling themselves slow the page down (the
 * sampler also overstates native DOM calls such as removeChild: time them in the page to be sure).
 *
 * Options: --rows N (10000), --seed-txs N (10000), --frames N (300), --no-build,
 * --out DIR (write the raw traces there, for chrome://tracing or Perfetto),
 * --first-pass (profile and trace the first scroll through the rows, as bench:ui measures it,
 * not a second one over rows already worked out), --invalidations (trace why elements are
 * restyled and relaid out: Chromium's invalidation tracking), --alloc (what a scroll allocates,
 * by call site, garbage included). --variants A,B (TxList variants that a temporary
 * `window.__txVariant` hook in the app switches) measures them in turns, untraced, with each
 * Chromium thread's CPU time per frame from /proc: CPU time is steadier than frame time on a
 * shared 2-core VM, and the threads tell main-thread work from raster and compositing. The first
 * variant is measured a second time each round as a control (see there).
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Page } from '@playwright/test'
import { connectService, startServiceSandbox } from '../e2e/ui-helpers'
import { openWebHost, startWebHostProcess, stopChild } from '../e2e/web-host-process'
import {
  buildApp,
  Cleanup,
  firstRowsInPage,
  launchBenchBrowser,
  percentile,
  scrollFrames,
  stopLoadingAll,
  watchFirstRows,
} from './ui-support'
import {
  chromiumThreadCpuMs,
  summariseAllocations,
  summariseProfile,
  type AllocNode,
  type CpuProfile,
} from './ui-profile-summaries'
import { summarise, summariseInvalidations, trace, type TraceEvent } from './ui-trace'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    'seed-txs': { type: 'string', default: '10000' },
    frames: { type: 'string', default: '300' },
    'no-build': { type: 'boolean', default: false },
    out: { type: 'string' },
    /** Experiments: TxList variants (window.__txVariant) measured in turns, untraced. */
    variants: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    layers: { type: 'boolean', default: false },
    'first-pass': { type: 'boolean', default: false },
    invalidations: { type: 'boolean', default: false },
    alloc: { type: 'boolean', default: false },
  },
})
const log = (m: string): void => void process.stderr.write(`ui-profile: ${m}\n`)

/** Frame count, median, p95 and total (ms) of one scroll through the list. */
async function scrollStats(page: Page): Promise<{ n: number; p50: number; p95: number; sum: number }> {
  const frames = await scrollFrames(page, Number(values.frames))
  return {
    n: frames.length,
    p50: percentile(frames, 50),
    p95: percentile(frames, 95),
    sum: frames.reduce((s, x) => s + x, 0),
  }
}

async function main(): Promise<void> {
  if (!values['no-build']) buildApp(log)
  const key = `bench_${randomBytes(8).toString('hex')}`
  const save = (name: string, data: TraceEvent[] | CpuProfile): void => {
    if (!values.out) return
    mkdirSync(values.out, { recursive: true })
    writeFileSync(join(values.out, name), JSON.stringify(Array.isArray(data) ? { traceEvents: data } : data))
  }
  const cleanup = new Cleanup().stopOnSignals()
  try {
    const sandbox = await startServiceSandbox([
      '--api-key',
      key,
      '--seed-txs',
      values['seed-txs']!,
      '--block-time',
      '0',
    ])
    cleanup.add(() => sandbox.stop())
    const dataDir = mkdtempSync(join(tmpdir(), 'chainscope-ui-profile-'))
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }))
    const host = await startWebHostProcess(dataDir)
    cleanup.add(() => stopChild(host.child))
    const browser = await launchBenchBrowser()
    cleanup.add(() => browser.close())
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.on('console', (m) => log(`console: ${m.text()}`))
    await openWebHost(page, host.url)
    await connectService(page, sandbox.info, key)
    const whale = sandbox.info.demo_addresses[sandbox.info.networks[0]!]!.whale!
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(whale)
    await search.press('Enter')
    await page.getByRole('heading', { level: 1, name: whale }).waitFor()
    await page.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1).waitFor()
    await page.getByRole('img', { name: /^Allocation by fiat value/ }).waitFor()
    await page.waitForTimeout(500)
    const cdp = await page.context().newCDPSession(page)

    const table = page.getByRole('table', { name: 'Transactions' })
    let firstRowsMs = 0
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
    let profile: CpuProfile | null = null
    await watchFirstRows(page)
    const first = await trace(
      cdp,
      async () => {
        await cdp.send('Profiler.start')
        const started = performance.now()
        await page.getByRole('tab', { name: 'Transactions' }).click()
        await table.getByRole('row').nth(1).waitFor()
        firstRowsMs = performance.now() - started
        profile = ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile
        await page.waitForTimeout(300)
      },
      values.invalidations,
    )
    if (profile) {
      save('first-rows.cpuprofile', profile)
      log(`first rows, JS self time by function:\n${summariseProfile(profile)}`)
    }
    save('first-rows.json', first)
    log(`first rows ${Math.round(firstRowsMs)} ms (traced):\n${summarise(first)}`)
    log(`${await firstRowsInPage(page)} (traced)`)
    const net = first.filter(
      (e) => e.name === 'ResourceSendRequest' || e.name === 'ResourceFinish' || e.name === 'ResourceReceiveResponse',
    )
    log(`network events in first rows: ${net.length}`)

    log('loading all…')
    const loaded = page.getByRole('status', { name: 'Loaded transactions' })
    const rowsNow = async (): Promise<number> =>
      Number(((await loaded.textContent()) ?? '').replace(/,/g, '').match(/(\d+) loaded/)?.[1] ?? 0)
    await page.getByRole('button', { name: 'Load all' }).click()
    while ((await rowsNow()) < Number(values.rows) && !((await loaded.textContent()) ?? '').includes('all loaded'))
      await page.waitForTimeout(250)
    await stopLoadingAll(page)
    await page.waitForTimeout(500)

    log(
      `cells clipped: ${JSON.stringify(await page.evaluate(`[...document.querySelectorAll('.scroller [role="cell"]')].filter((c) => getComputedStyle(c).overflowX !== 'visible').map((c) => c.className.replace('data-v', ''))`))}`,
    )
    if (values.layers) {
      const got = new Promise<{
        layers?: {
          layerId: string
          width: number
          height: number
          drawsContent: boolean
          backendNodeId?: number
          invisible?: boolean
        }[]
      }>((r) => cdp.once('LayerTree.layerTreeDidChange', r))
      await cdp.send('DOM.enable')
      await cdp.send('LayerTree.enable')
      await page.evaluate(`document.querySelector('.scroller').scrollTop += 44`)
      const tree = await got
      const layers = tree.layers ?? []
      log(`layers: ${layers.length}, drawing: ${layers.filter((l) => l.drawsContent).length}`)
      for (const l of layers.filter((x) => x.drawsContent).slice(0, 40)) {
        const reasons = (await cdp
          .send('LayerTree.compositingReasons', { layerId: l.layerId })
          .catch(() => ({ compositingReasons: [] }))) as { compositingReasons: string[] }
        let node = ''
        if (l.backendNodeId) {
          const d = (await cdp.send('DOM.describeNode', { backendNodeId: l.backendNodeId }).catch(() => null)) as {
            node: { localName: string; attributes?: string[] }
          } | null
          node = d ? `${d.node.localName} ${(d.node.attributes ?? []).join(' ').slice(0, 80)}` : ''
        }
        log(`  ${l.width}x${l.height} ${reasons.compositingReasons.join(',')} ${node}`)
      }
    }
    if (values.variants) {
      // The first variant is measured twice a round, the second time as a control: on this
      // shared VM two runs of the same code differ by 5-10% even over several rounds, and a
      // difference smaller than the control's is not one.
      const vs = values.variants.split(',')
      const control = `${vs[0]}(control)`
      const res: Record<string, { p50: number[]; p95: number[]; mean: number[]; threads: Map<string, number[]> }> = {}
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const v of [...vs, control]) {
          await page.evaluate(`window.__txVariant(${JSON.stringify(v === control ? vs[0] : v)})`)
          await page.waitForTimeout(200)
          const before = chromiumThreadCpuMs()
          const r = await scrollStats(page)
          const after = chromiumThreadCpuMs()
          const x = (res[v] ??= { p50: [], p95: [], mean: [], threads: new Map() })
          x.p50.push(r.p50)
          x.p95.push(r.p95)
          x.mean.push(r.sum / r.n)
          for (const [name, ms] of after) {
            const list = x.threads.get(name) ?? x.threads.set(name, []).get(name)!
            list.push((ms - (before.get(name) ?? 0)) / r.n)
          }
        }
      }
      const med = (a: number[]): number => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)]!
      for (const [v, x] of Object.entries(res)) {
        log(
          `variant ${v.padEnd(14)} mean ${med(x.mean).toFixed(2)} p50 ${med(x.p50).toFixed(1)} p95 ${med(x.p95).toFixed(1)}  (p95s ${x.p95.map((n) => n.toFixed(1)).join(' ')})`,
        )
        const busy = [...x.threads].filter(([, ms]) => med(ms) >= 0.1).sort((a, b) => med(b[1]) - med(a[1]))
        log(`  CPU per frame (ms, median): ${busy.map(([name, ms]) => `${name} ${med(ms).toFixed(2)}`).join(', ')}`)
      }
      return
    }
    if (values.alloc) {
      await cdp.send('HeapProfiler.enable')
      await cdp.send('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      })
      const stats = await scrollStats(page)
      const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as { profile: { head: AllocNode } }
      log(
        `scroll ${JSON.stringify(stats)}; allocated (sampled, garbage included):\n${summariseAllocations(profile.head)}`,
      )
      return
    }
    // bench:ui's scroll is the first through these rows; a second one finds them worked out.
    if (!values['first-pass']) log(`scroll untraced: ${JSON.stringify(await scrollStats(page))}`)
    await cdp.send('Profiler.start')
    const sampled = await scrollStats(page)
    const scrollProfile = ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile
    save('scroll.cpuprofile', scrollProfile)
    log(`scroll sampled ${JSON.stringify(sampled)}, JS self time by function:\n${summariseProfile(scrollProfile)}`)
    let traced: unknown
    const scroll = await trace(
      cdp,
      async () => {
        traced = await scrollStats(page)
      },
      values.invalidations,
    )
    save('scroll.json', scroll)
    log(`scroll traced: ${JSON.stringify(traced)}\n${summarise(scroll)}`)
    if (values.invalidations) log(`why elements were restyled or relaid out:\n${summariseInvalidations(scroll)}`)
  } finally {
    await cleanup.run()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `ui-profile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})
