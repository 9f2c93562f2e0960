import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress } from 'viem'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { dataUrl, http } from './test-helpers'
import { SEED_TIMEOUT_MS, startSandbox as startOne, type StartedSandbox, type StartOptions } from './testing'

/** The CLI contract of sandbox/README.md: flags, the one ready line, stderr progress, signals, the cache. */
const temp = mkdtempSync(join(tmpdir(), 'sandbox-cli-'))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

/**
 * Every sandbox a test starts is stopped after it, whether or not the test got as far as its own
 * `stop()`: an assertion failing first would otherwise leave the sandbox and its chains running
 * after the test run (stop() is safe to call twice).
 */
const started: StartedSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sb) => sb.stop()))
})
async function startSandbox(options: StartOptions): Promise<StartedSandbox> {
  const sb = await startOne(options)
  started.push(sb)
  return sb
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'cli.ts'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.once('exit', (code) => resolve({ code, stdout, stderr }))
  })
}

const portOpen = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

describe('sandbox CLI', () => {
  it('exits 2 with a message naming the flag on bad input (the cases are in config.test.ts)', async () => {
    const r = await run(['--networks', 'alpha'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/--networks takes exactly two names/)
  })

  it(
    'prints exactly one JSON ready line, honours --networks, and stops both chains on SIGTERM',
    async () => {
      const sb = await startSandbox({ args: ['--networks', 'main,test', '--block-time', '0'] })
      const { info } = sb
      expect(Object.keys(info).sort()).toEqual([
        'api_key',
        'base_url',
        'billing',
        'coins',
        'demo_addresses',
        'networks',
        'rpc_url',
      ])
      expect(info.billing).toBe('request')
      expect(info.networks).toEqual(['main', 'test'])
      // Each network's coin, named for the profile (docs/decisions/coin-as-asset.md).
      expect(info.coins).toEqual({ main: { symbol: 'MAIN', decimals: 18 }, test: { symbol: 'TEST', decimals: 18 } })
      expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(info.rpc_url).toBe(`${info.base_url}/rpc`)
      // Without --api-key each run gets a fresh random key.
      expect(info.api_key).toMatch(/^sbx_[0-9a-f]{32}$/)
      for (const name of info.networks) {
        for (const role of ['whale', 'holder', 'contract', 'empty']) {
          const address = info.demo_addresses[name]![role]!
          expect(getAddress(address)).toBe(address)
        }
      }
      const ok = await http(
        dataUrl(info.base_url, 'test', 'balance', {
          api_key: info.api_key,
          address: info.demo_addresses.test!.holder!,
        }),
      )
      expect(ok.status).toBe(200)
      expect(
        (
          await http(
            dataUrl(info.base_url, 'alpha', 'balance', {
              api_key: info.api_key,
              address: info.demo_addresses.test!.holder!,
            }),
          )
        ).status,
      ).toBe(404)
      const anvils = [...sb.stderr().matchAll(/anvil (http:\/\/127\.0\.0\.1:\d+)/g)].map((m) => m[1]!)
      expect(anvils).toHaveLength(2)
      for (const url of anvils) expect(await portOpen(url)).toBe(true)
      expect(await sb.stop()).toBe(0)
      expect(sb.stdout()).toBe(`${JSON.stringify(info)}\n`)
      for (const url of anvils) expect(await portOpen(url)).toBe(false)
      expect(await portOpen(info.base_url)).toBe(false)
    },
    SEED_TIMEOUT_MS,
  )

  it('seeds a fresh state dir once (progress on stderr), shares it between concurrent starts, then starts from cache', async () => {
    const stateDir = join(temp, 'state')
    const args = ['--state-dir', stateDir, '--seed-txs', '60', '--block-time', '0', '--api-key', 'cache-test-key']
    const [a, b] = await Promise.all([startSandbox({ args }), startSandbox({ args })])
    // Each network is seeded by exactly one of the two; the other waits for it (or, if it
    // started late, finds the finished entry) and loads that network from cache. Each network
    // has its own lock, so one start may seed alpha while the other seeds beta.
    for (const network of ['alpha', 'beta']) {
      const seeding = new RegExp(
        `^sandbox-progress \\{"stage":"seeding","done":\\d+,"total":\\d+,"network":"${network}"\\}$`,
        'm',
      )
      const seeders = [a, b].filter((s) => seeding.test(s.stderr()))
      expect(seeders, `${network} is seeded by one start`).toHaveLength(1)
      const other = seeders[0] === a ? b : a
      expect(other.stderr()).toMatch(
        new RegExp(
          `"stage":"waiting for another sandbox to finish seeding","network":"${network}"|sandbox: ${network}: .*loaded from cache`,
        ),
      )
    }
    expect(a.info.demo_addresses).toEqual(b.info.demo_addresses)
    const hashes = async (info: typeof a.info) =>
      (
        await http<{ items: { hash: string }[] }>(
          dataUrl(info.base_url, 'beta', 'transactions', {
            api_key: 'cache-test-key',
            address: info.demo_addresses.beta!.whale!,
          }),
        )
      ).json.items.map((i) => i.hash)
    const seeded = await hashes(a.info)
    expect(seeded.length).toBeGreaterThan(10)
    expect(await hashes(b.info)).toEqual(seeded)
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0])
    expect(readdirSync(stateDir).filter((f) => f.endsWith('.lock') || f.includes('.tmp-'))).toEqual([])
    const c = await startSandbox({ args })
    expect(c.stderr()).toMatch(/loaded from cache/)
    expect(c.stderr()).not.toMatch(/"stage":"seeding"/)
    expect(await hashes(c.info)).toEqual(seeded)
    expect(await c.stop()).toBe(0)
  }, 180_000)
})
