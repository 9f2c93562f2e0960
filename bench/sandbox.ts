import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageRoot } from '../sandbox/paths'
import { startSandbox, type StartedSandbox } from '../sandbox/testing'

/**
 * `npm run bench:sandbox`: the first start of a fresh clone (the built sandbox, empty state
 * folder: it unpacks the shipped seed), the start time from the seeded cache, and transaction-page latency at
 * 50 requests/s for 10 s (open loop: a request every 20 ms whatever the answers do) against a
 * live sandbox (blocks every ~2 s) with limits raised so nothing is refused. Prints
 * `sandbox: first_start_s=… start_s=… page_p50_ms=… page_p99_ms=… at_rps=50` as its last line.
 */
const RPS = 50
const SECONDS = 10
const KEY = 'bench-key-0001'

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const round = (n: number, digits = 1): string => n.toFixed(digits)

async function timedStart(args: string[], built?: string): Promise<{ sb: StartedSandbox; seconds: number }> {
  const started = performance.now()
  const sb = await startSandbox({ args, built })
  return { sb, seconds: (performance.now() - started) / 1000 }
}

// 0. A fresh clone's first start: the built sandbox (what npm start runs) with an empty state
// folder, until its ready line. Falls back to the tsx CLI (slower) when nothing is built.
const built = join(packageRoot(), 'out', 'main', 'sandbox.js')
if (!existsSync(built))
  process.stderr.write(
    'bench: out/main/sandbox.js is not built (npx electron-vite build); first_start_s measures the tsx CLI\n',
  )
const emptyState = mkdtempSync(join(tmpdir(), 'bench-first-start-'))
let firstStart: number
try {
  const first = await timedStart(
    ['--block-time', '0', '--state-dir', emptyState],
    existsSync(built) ? built : undefined,
  )
  firstStart = first.seconds
  const how = /seeded in/.test(first.sb.stderr()) ? 'seeded (no usable shipped state)' : 'loaded the shipped state'
  process.stderr.write(`bench: first start from an empty state folder ${how}\n`)
  await first.sb.stop()
} finally {
  rmSync(emptyState, { recursive: true, force: true })
}

// 1. Make sure the cache exists (a first run seeds here, and says how long it took).
const warm = await timedStart(['--block-time', '0'])
const seeded = /seeded in ([\d.]+) s/.exec(warm.sb.stderr())
if (seeded) process.stderr.write(`bench: no cache yet; seeding took ${seeded[1]} s (both networks in parallel)\n`)
await warm.sb.stop()

// 2. Start from cache, three times; report the median.
const starts: number[] = []
for (let i = 0; i < 3; i++) {
  const { sb, seconds } = await timedStart(['--block-time', '0'])
  starts.push(seconds)
  await sb.stop()
}
starts.sort((a, b) => a - b)
if (existsSync(built)) process.stderr.write(`bench: start_s measures the tsx CLI, the slower of the two\n`)

// 3. Page latency at 50 rps on a live sandbox.
const { sb } = await timedStart([
  '--api-key',
  KEY,
  '--rate',
  '1000',
  '--burst',
  '1000',
  '--quota',
  '100000000',
  '--block-time',
  '2',
])
try {
  const urls: string[] = []
  for (const network of sb.info.networks) {
    let query = new URLSearchParams({ api_key: KEY, address: sb.info.demo_addresses[network]!.whale! })
    for (let page = 0; page < 60; page++) {
      const url = `${sb.info.base_url}/api/v1/${network}/transactions?${query}`
      urls.push(url)
      const body = (await (await fetch(url)).json()) as { next_page_params: Record<string, string | number> | null }
      if (!body.next_page_params) break
      query = new URLSearchParams({
        address: sb.info.demo_addresses[network]!.whale!,
        ...Object.fromEntries(Object.entries(body.next_page_params).map(([k, v]) => [k, String(v)])),
        api_key: KEY,
      })
    }
  }
  const latencies: number[] = []
  let failures = 0
  const inflight: Promise<void>[] = []
  const t0 = performance.now()
  for (let i = 0; i < RPS * SECONDS; i++) {
    const due = t0 + (i * 1000) / RPS
    const wait = due - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const url = urls[(i * 7) % urls.length]!
    inflight.push(
      (async () => {
        const s = performance.now()
        const response = await fetch(url)
        const text = await response.text()
        if (response.status !== 200 || !text.startsWith('{"items":[')) failures += 1
        latencies.push(performance.now() - s)
      })(),
    )
  }
  await Promise.all(inflight)
  const elapsed = (performance.now() - t0) / 1000
  latencies.sort((a, b) => a - b)
  process.stderr.write(
    `bench: ${latencies.length} page requests in ${round(elapsed)} s (${round(latencies.length / elapsed)} rps achieved), ${failures} failed, ` +
      `max ${round(latencies[latencies.length - 1]!)} ms; starts ${starts.map((s) => round(s, 2)).join(', ')} s\n`,
  )
  process.stdout.write(
    `sandbox: first_start_s=${round(firstStart, 2)} start_s=${round(starts[1]!, 2)} page_p50_ms=${round(percentile(latencies, 50))} page_p99_ms=${round(percentile(latencies, 99))} at_rps=${RPS}\n`,
  )
} finally {
  await sb.stop()
}
