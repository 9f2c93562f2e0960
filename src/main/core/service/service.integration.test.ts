import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  BridgeCallInput,
  BridgeCallName,
  BridgeCallOutputs,
  BridgeEventName,
  ConnectionView,
  TransactionsPage,
} from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { createCore, type Core } from '../app-core'
import { Redactor, type Logger } from '../util/logger'
import { testCoreOptions } from '../testing/core-options'
import type { SandboxInfo } from '../sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'

/**
 * The whole core against the real sandbox, started on demand through the child-process
 * launcher, every call through the bridge as the renderer makes it, every typed error
 * provoked with the sandbox's fault switch. Keys go to the real keychain: run under
 * scripts/with-keyring.sh (npm test does).
 */
const KEYCHAIN_SERVICE = `ChainscopeIntegration-${process.pid}`
let dir: string
let core: Core
let info: SandboxInfo
let ops: ReturnType<typeof admin>
const launcher = capturingLauncher(tsxSandboxLauncher(['--admin']))
const redactor = new Redactor()
const logLines: string[] = []
// Raw lines, before the logger's own redaction: the core must not hand it the key at all.
const log: Logger = { info: (m) => logLines.push(m), warn: (m) => logLines.push(m), error: (m) => logLines.push(m) }
const events: { event: BridgeEventName; payload: unknown }[] = []
const answers: unknown[] = []

async function call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> {
  const result = await core.bridge.dispatch(name, input)
  answers.push(result)
  if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`)
  return result.value as BridgeCallOutputs[K]
}

async function failure<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError> {
  const result = await core.bridge.dispatch(name, input)
  answers.push(result)
  if (result.ok) throw new Error(`${name} succeeded but should have failed`)
  return result.error
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'core-integration-'))
  core = await createCore(
    testCoreOptions(dir, {
      log,
      redactor,
      sandboxLauncher: launcher,
      // The real keychain (the default), under a service name of this test's own.
      keychain: undefined,
      keychainService: KEYCHAIN_SERVICE,
      // Short timeouts and backoffs keep the fault tests quick; the defaults are tested elsewhere.
      tuning: {
        client: { timeoutMs: 1500, backoffMs: 50, maxAttempts: 2, maxRetryWaitMs: 3000 },
        connection: { firstPauseMs: 300 },
      },
    }),
  )
  core.bridge.subscribe((event, payload) => events.push({ event, payload }))
}, 300_000)

afterAll(async () => {
  await core?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

/** A loopback port nobody listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((r) => server.close(() => r()))
  return port
}

const whale = (network = 'alpha'): string => info.demo_addresses[network]!.whale!

describe('core against the sandbox', () => {
  it('starts the sandbox on demand when its profile is activated, with its key in memory only', async () => {
    expect((await call('profiles.list', {})).map((p) => [p.id, p.active])).toEqual([['sandbox', false]])
    await call('profiles.activate', { id: 'sandbox' })
    // The first call waits for the sandbox to be ready (the network names are its defaults).
    expect(await call('rpc.call', { network: 'alpha', method: 'eth_chainId' })).toEqual({ result: '0x1b59' })
    info = launcher.info!
    ops = admin(info)
    expect(info.networks).toEqual(['alpha', 'beta'])
    const states = events.filter((e) => e.event === 'sandbox').map((e) => (e.payload as { state: string }).state)
    expect(states[0]).toBe('starting')
    expect(states).toContain('ready')
    expect(await call('sandbox.status', {})).toMatchObject({
      state: 'ready',
      demoAddresses: {
        alpha: { whale: info.demo_addresses.alpha!.whale },
        beta: { empty: info.demo_addresses.beta!.empty },
      },
    })
    const [sandbox] = await call('profiles.list', {})
    expect(sandbox).toMatchObject({
      id: 'sandbox',
      active: true,
      baseUrl: info.base_url,
      networks: [
        { name: 'alpha', label: 'Alpha' },
        { name: 'beta', label: 'Beta' },
      ],
    })
    expect(await call('key.status', { profileId: 'sandbox' })).toMatchObject({
      set: true,
      storage: 'session',
      last4: info.api_key.slice(-4),
    })
    expect(await failure('key.set', { profileId: 'sandbox', key: 'something-else' })).toMatchObject({
      kind: 'invalid-input',
    })
  })

  it('reads balances from the network, then from the cache, and an empty address as empty', async () => {
    const first = await call('data.balances', { network: 'alpha', address: whale(), refresh: true })
    expect(first).toMatchObject({ source: 'network', staleReason: null, network: 'alpha', address: whale() })
    expect(first.items.length).toBeGreaterThanOrEqual(3)
    expect(first.items.every((i) => /^\d+$/.test(i.value))).toBe(true)
    const again = await call('data.balances', { network: 'alpha', address: whale().toLowerCase() })
    expect(again).toMatchObject({ source: 'cache', fetchedAt: first.fetchedAt })
    const empty = await call('data.balances', { network: 'beta', address: info.demo_addresses.beta!.empty! })
    expect(empty.items).toEqual([])
  })

  it('walks every page of the busy address with opaque cursors: no duplicate, no gap, newest first', async () => {
    const hashes = new Set<string>()
    let cursor: string | null = null
    let pages = 0
    let lastBlock = Infinity
    do {
      const page: TransactionsPage = await call('data.transactions', {
        network: 'alpha',
        address: whale(),
        cursor,
        priority: 'prefetch',
        scope: 'walk',
      })
      expect(page.cursor).toBe(cursor)
      for (const tx of page.items) {
        expect(hashes.has(tx.hash)).toBe(false)
        hashes.add(tx.hash)
        expect(tx.block).not.toBeNull()
        expect(tx.block).toBeLessThanOrEqual(lastBlock)
        lastBlock = tx.block ?? lastBlock
      }
      if (page.nextCursor) expect(page.nextCursor).not.toContain(info.api_key)
      cursor = page.nextCursor
      pages += 1
    } while (cursor)
    expect(pages).toBeGreaterThanOrEqual(50)
    expect(hashes.size).toBeGreaterThanOrEqual(2500)
    // The heads seen in those answers gave the live height for free: no poll has run yet
    // (the window is hidden), yet the head is known.
    expect(events.some((e) => e.event === 'height')).toBe(false)
    const [alpha] = await call('height.get', {})
    expect(alpha).toMatchObject({ network: 'alpha', height: expect.stringMatching(/^\d+$/), gasPriceWei: null })
  }, 120_000)

  it('makes single and batch RPC calls, with JSON-RPC errors as typed data', async () => {
    const { result } = await call('rpc.call', { network: 'beta', method: 'eth_chainId', params: [] })
    expect(result).toBe('0x1b5a')
    const batch = await call('rpc.batch', {
      network: 'alpha',
      calls: [
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_getBalance', params: ['not-an-address', 'latest'] },
        { method: 'eth_noSuchMethod', params: [] },
      ],
    })
    expect(batch[0]).toMatchObject({ ok: true, result: expect.stringMatching(/^0x[0-9a-f]+$/) })
    expect(batch[1]).toMatchObject({ ok: false, code: expect.any(Number) })
    expect(batch[2]).toMatchObject({ ok: false, code: -32601 })
    expect(await failure('rpc.call', { network: 'alpha', method: 'eth_getBalance', params: ['nope'] })).toMatchObject({
      kind: 'rpc',
      code: expect.any(Number),
    })
    expect(await failure('rpc.call', { network: 'gamma', method: 'eth_blockNumber' })).toMatchObject({
      kind: 'invalid-input',
      field: 'network',
    })
  })

  it('polls height and gas price only while visible, and publishes them', async () => {
    expect((await call('height.get', {})).every((h) => h.observedAt === null || h.height !== null)).toBe(true)
    const before = events.length
    await call('app.setVisible', { visible: true })
    await expect
      .poll(
        () =>
          events
            .slice(before)
            .filter((e) => e.event === 'height' && (e.payload as { gasPriceWei: string | null }).gasPriceWei !== null)
            .length,
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(2)
    const heights = await call('height.get', {})
    expect(heights.map((h) => h.network)).toEqual(['alpha', 'beta'])
    const { result } = await call('rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] })
    expect(Math.abs(Number(heights[0]!.height) - Number(BigInt(result as string)))).toBeLessThanOrEqual(3)
    expect(heights[0]).toMatchObject({ stale: false, gasPriceWei: expect.stringMatching(/^\d+$/) })
    await call('app.setVisible', { visible: false })
  })

  it('drops the queued work of a view that is left (work.cancel)', async () => {
    const before = (await ops.stats(info.api_key)).requests
    const addresses = Object.values(info.demo_addresses.beta!).slice(0, 12)
    const pending = addresses.map((address) =>
      core.bridge.dispatch('data.balances', { network: 'beta', address, refresh: true, scope: 'leaving' }),
    )
    await expect.poll(async () => (await call('limiter.state', {})).queued.user).toBeGreaterThan(0)
    const { cancelled } = await call('work.cancel', { scope: 'leaving' })
    const results = await Promise.all(pending)
    expect(cancelled).toBeGreaterThan(0)
    expect(results.filter((r) => !r.ok && r.error.kind === 'cancelled')).toHaveLength(cancelled)
    expect(results.filter((r) => r.ok)).toHaveLength(addresses.length - cancelled)
    // Queued work never reached the service; what was already on its way did (its answer
    // still fills the cache), whether or not its view waited for it.
    const sent = (await ops.stats(info.api_key)).requests - before
    expect(sent).toBeLessThan(addresses.length)
    expect(sent).toBeGreaterThanOrEqual(addresses.length - cancelled)
    // The view's (user) work is gone; the live height poll may queue background work meanwhile.
    expect((await call('limiter.state', {})).queued).toMatchObject({ user: 0, prefetch: 0 })
  })

  it('counts exactly what the service counts and publishes the limiter state', async () => {
    const state = await call('limiter.state', {})
    const served = await ops.stats(info.api_key)
    expect(served.rejected_429).toBe(0)
    // Every request the client counted reached the service; none was refused.
    expect(state.usedToday).toBe(served.requests)
    expect(state).toMatchObject({ profileId: 'sandbox', quotaPerDay: 1000, burst: 5, ratePerSecond: 50, reserve: 200 })
    expect(state.leftToday).toBe(1000 - state.usedToday)
    expect(events.some((e) => e.event === 'limiter')).toBe(true)
  })

  describe('typed errors from the fault switch', () => {
    const holder = (): string => info.demo_addresses.alpha!.holder!

    it('malformed body → protocol, with a safe excerpt', async () => {
      await ops.faults({ mode: 'malformed', match: 'balance', times: 1 })
      const error = await failure('data.balances', { network: 'alpha', address: holder(), refresh: true })
      expect(error).toMatchObject({
        kind: 'protocol',
        message: expect.stringMatching(/not valid JSON/),
        data: expect.any(String),
      })
    })

    it('truncated body → protocol', async () => {
      await ops.faults({ mode: 'truncated', match: 'transactions', times: 1 })
      const error = await failure('data.transactions', { network: 'alpha', address: holder(), refresh: true })
      expect(error.kind).toBe('protocol')
    })

    it('HTML error page → server, after a retry', async () => {
      await ops.faults({ mode: 'html', match: 'rpc', times: 2 })
      const error = await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })
      expect(error).toMatchObject({ kind: 'server', message: expect.stringMatching(/HTTP 502/) })
    })

    it('a 500 once → retried and answered', async () => {
      await ops.faults({ mode: 'status500', match: 'rpc', times: 1 })
      expect((await call('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).result).toMatch(/^0x/)
    })

    it('slow answers → timeout, not retried; the breaker then holds calls until its probe', async () => {
      await ops.faults({ latency_ms: 2500, match: 'rpc', times: 2 })
      expect(await failure('rpc.call', { network: 'beta', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'timeout',
      })
      // Sent once: the second slow answer is still armed, and the breaker refuses at once.
      expect(await failure('rpc.call', { network: 'beta', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'offline',
        message: expect.stringMatching(/has not answered since .*tries again at/),
      })
      const beta = (await call('connection.get', {})).endpoints.find(
        (e) => e.network === 'beta' && e.endpoint === 'rpc',
      )
      expect(beta).toMatchObject({ state: 'not-answering', nextRetryAt: expect.any(String) })
      await ops.clear()
      // The breaker's first pause (300 ms here) passes for real: the sandbox runs in real time.
      await sleep(400)
      expect((await call('rpc.call', { network: 'beta', method: 'eth_blockNumber' })).result).toMatch(/^0x/)
    })

    it('dropped connections → offline, and the connectivity event says so', async () => {
      await ops.faults({ mode: 'drop', match: 'rpc', times: 2 })
      expect(await failure('rpc.call', { network: 'beta', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'offline',
        message: expect.stringMatching(/dropped/),
      })
      const betaRpc = (payload: unknown) =>
        (payload as ConnectionView).endpoints.find((e) => e.network === 'beta' && e.endpoint === 'rpc')
      const states = events.filter((e) => e.event === 'connectivity').map((e) => betaRpc(e.payload)?.state)
      expect(states).toContain('not-answering')
      await call('rpc.call', { network: 'beta', method: 'eth_blockNumber' })
      expect(betaRpc(events.filter((e) => e.event === 'connectivity').at(-1)!.payload)).toMatchObject({
        state: 'answering',
        reason: null,
      })
    })

    it('a 429 storm → rate-limited with Retry-After; a single 429 is waited out', async () => {
      await ops.faults({ mode: 'storm429', match: 'rpc', times: 2 })
      expect(await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'rate-limited',
        retryAfterMs: 1000,
      })
      await ops.faults({ mode: 'storm429', match: 'rpc', times: 1 })
      const before = logLines.length
      expect((await call('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).result).toMatch(/^0x/)
      // The retry waited the service's Retry-After (1 s), not the shorter backoff.
      expect(logLines.slice(before).join('\n')).toMatch(/attempt 1 failed \(rate-limited.*retrying in 1000 ms/)
    })

    it('shows the snapshot, marked offline, when the service fails for an address seen before', async () => {
      await ops.faults({ mode: 'status500', match: 'balance', times: 2 })
      const view = await call('data.balances', { network: 'alpha', address: whale(), refresh: true })
      expect(view).toMatchObject({ source: 'snapshot', staleReason: 'offline' })
      expect(view.items.length).toBeGreaterThan(0)
    })

    it('a bad paging parameter → invalid input naming it', async () => {
      const cursor = Buffer.from(JSON.stringify({ block_number: 'abc', index: 1 })).toString('base64url')
      expect(await failure('data.transactions', { network: 'alpha', address: holder(), cursor })).toMatchObject({
        kind: 'invalid-input',
        field: 'block_number',
      })
    })

    it('a bad checksum → invalid input before any request', async () => {
      const bad = whale().replace(/[a-f]/, (c) => c.toUpperCase())
      expect(await failure('data.balances', { network: 'alpha', address: bad })).toMatchObject({
        kind: 'invalid-input',
        field: 'address',
        message: expect.stringMatching(/checksum/),
      })
    })
  })

  describe('a service profile pointing at the same sandbox', () => {
    it('sets, tests, replaces and clears its key in the real keychain', async () => {
      expect(process.env.CHAINSCOPE_KEYRING, 'run through scripts/with-keyring.sh').toBe('ready')
      const profile = await call('profiles.save', {
        name: 'Local service',
        baseUrl: info.base_url,
        rpcUrl: info.rpc_url,
        networks: [
          { name: 'alpha', label: 'Alpha' },
          { name: 'gamma', label: 'Gamma' },
        ],
      })
      expect(await failure('key.test', { profileId: profile.id })).toMatchObject({
        kind: 'auth',
        message: expect.stringMatching(/No API key/),
      })
      expect(await call('key.set', { profileId: profile.id, key: 'wrong-key-0000' })).toMatchObject({
        set: true,
        storage: 'keychain',
        last4: '0000',
        keychainAvailable: true,
      })
      expect(await failure('key.test', { profileId: profile.id })).toMatchObject({
        kind: 'auth',
        message: expect.stringMatching(/^Key rejected — fix the key/),
      })
      const status = await call('key.set', { profileId: profile.id, key: info.api_key })
      expect(status).toMatchObject({ set: true, storage: 'keychain', last4: info.api_key.slice(-4) })
      const test = await call('key.test', { profileId: profile.id })
      expect(test).toMatchObject({ latencyMs: expect.any(Number), height: expect.stringMatching(/^\d+$/) })

      await call('profiles.activate', { id: profile.id })
      // Unknown network on the service: 404 on both spellings → not-found.
      expect(await failure('data.balances', { network: 'gamma', address: whale() })).toMatchObject({
        kind: 'not-found',
      })
      // An offline service: the same profile pointed at a closed port.
      const port = await closedPort()
      await call('profiles.save', {
        id: profile.id,
        name: 'Local service',
        baseUrl: `http://127.0.0.1:${port}`,
        rpcUrl: `http://127.0.0.1:${port}/rpc`,
        networks: [
          { name: 'alpha', label: 'Alpha' },
          { name: 'gamma', label: 'Gamma' },
        ],
      })
      // New origins: the stored key was forgotten and is given again.
      expect(await call('key.status', { profileId: profile.id })).toMatchObject({ set: false })
      await call('key.set', { profileId: profile.id, key: info.api_key })
      expect(await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).toMatchObject({
        kind: 'offline',
        message: expect.stringMatching(/connection refused/),
      })
      expect(await call('key.clear', { profileId: profile.id })).toMatchObject({ set: false, storage: 'none' })
      await call('profiles.remove', { id: profile.id })
      await call('profiles.activate', { id: 'sandbox' })
    })
  })

  it('says a sandbox died and does not restart it silently; Start brings it back with a fresh key and count', async () => {
    const first = launcher.running!
    await first.stop() // from outside the core: to the core this is a crash
    await expect
      .poll(() => events.filter((e) => e.event === 'sandbox').at(-1)?.payload)
      .toMatchObject({ state: 'stopped', unexpected: true, stoppedAt: expect.any(String) })
    expect(await call('key.status', { profileId: 'sandbox' })).toMatchObject({ set: false })
    expect(await failure('rpc.call', { network: 'beta', method: 'eth_chainId' })).toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/stopped unexpectedly.*Start it again in Settings/),
    })
    expect(launcher.running).toBe(first)
    expect(await call('sandbox.start', {})).toMatchObject({ state: 'starting' })
    expect((await call('rpc.call', { network: 'beta', method: 'eth_chainId' })).result).toBe('0x1b5a')
    expect(launcher.running).not.toBe(first)
    expect(launcher.info!.api_key).not.toBe(info.api_key)
    expect(await call('limiter.state', {})).toMatchObject({ usedToday: 1 })
    expect((await call('profiles.list', {}))[0]!.baseUrl).toBe(launcher.info!.base_url)
  })

  it('never lets the key out: not in any answer, event, log line or file', async () => {
    await call('watchlists.create', { name: 'Check' })
    for (const key of [info.api_key, launcher.info!.api_key]) {
      expect(JSON.stringify(answers)).not.toContain(key)
      expect(JSON.stringify(events)).not.toContain(key)
      expect(logLines.join('\n')).not.toContain(key)
    }
    const raw: string[] = []
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f)
        if (statSync(p).isDirectory()) walk(p)
        else raw.push(readFileSync(p, 'utf8'))
      }
    }
    walk(dir)
    expect(raw.length).toBeGreaterThan(3)
    for (const key of [info.api_key, launcher.info!.api_key]) {
      expect(raw.some((t) => t.includes(key) || t.includes(encodeURIComponent(key)))).toBe(false)
    }
  })
})

describe('core against a sandbox with a tiny quota', () => {
  it("turns the service's quota answer into quota-exhausted and stops asking", async () => {
    const small = capturingLauncher(tsxSandboxLauncher(['--admin', '--quota', '3']))
    const d = mkdtempSync(join(tmpdir(), 'core-quota-'))
    const c = await createCore(testCoreOptions(d, { sandboxLauncher: small }))
    try {
      await c.bridge.dispatch('profiles.activate', { id: 'sandbox' })
      for (let i = 0; i < 3; i++)
        expect((await c.bridge.dispatch('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).ok).toBe(true)
      const over = await c.bridge.dispatch('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })
      expect(over).toMatchObject({ ok: false, error: { kind: 'quota-exhausted', retryAfterMs: expect.any(Number) } })
      const after = await c.bridge.dispatch('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })
      expect(after).toMatchObject({
        ok: false,
        error: { kind: 'quota-exhausted', message: expect.stringMatching(/used up/) },
      })
      const stats = await admin(small.info!).stats(small.info!.api_key)
      // Three served, one refused, and the fifth never sent.
      expect(stats).toMatchObject({ requests: 4, rejected_429: 1, by_limit: { quota: 1 } })
      expect(await c.bridge.dispatch('limiter.state', {})).toMatchObject({ ok: true, value: { leftToday: 0 } })
    } finally {
      await c.dispose()
      rmSync(d, { recursive: true, force: true })
    }
  }, 120_000)
})
