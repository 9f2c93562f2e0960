import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { dataUrl, http, rpc } from './test-helpers'
import { startSandbox as startOne, type StartedSandbox } from './testing'

/**
 * `--live-state DIR` (issue 38): the sandbox keeps its chains across its own restarts, so a
 * client's cache and the chain agree; `--fresh` is the explicit reset to the seed; a saved chain
 * that cannot be loaded fails the start instead of silently falling back to the seed.
 */
const dir = mkdtempSync(join(tmpdir(), 'sandbox-live-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const started: StartedSandbox[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((sb) => sb.stop()))
})
const KEY = 'live-state-test-key'
const ARGS = ['--admin', '--block-time', '0', '--api-key', KEY, '--live-state', dir]

async function start(extra: string[] = []): Promise<StartedSandbox> {
  const sb = await startOne({ args: [...ARGS, ...extra] })
  started.push(sb)
  return sb
}

async function head(sb: StartedSandbox): Promise<number> {
  const [hex] = await rpc<string>(sb.info.rpc_url, 'alpha', KEY, [{ method: 'eth_blockNumber' }])
  return Number(hex)
}

async function txOnChain(sb: StartedSandbox, hash: string): Promise<unknown> {
  const [tx] = await rpc<unknown>(sb.info.rpc_url, 'alpha', KEY, [
    { method: 'eth_getTransactionByHash', params: [hash] },
  ])
  return tx
}

async function indexedHashes(sb: StartedSandbox, address: string): Promise<string[]> {
  const r = await http<{ items: { hash: string }[] }>(
    dataUrl(sb.info.base_url, 'alpha', 'transactions', { api_key: KEY, address }),
  )
  expect(r.status).toBe(200)
  return r.json.items.map((i) => i.hash)
}

describe('the sandbox keeps its chains across its restarts', { timeout: 300_000 }, () => {
  it('resumes after a stop with the block and transaction made before it; --fresh goes back to the seed', async () => {
    const first = await start()
    const seedHead = await head(first)
    const to = first.info.demo_addresses.alpha!.empty!
    const r = await http<{ hash: string; block: number }>(`${first.info.base_url}/__sandbox/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ network: 'alpha', to, kind: 'native', after: 3 }),
    })
    expect(r.status).toBe(200)
    const { hash, block } = r.json
    expect(block).toBeGreaterThan(seedHead + 3)
    expect(await first.stop()).toBe(0)
    expect(first.stderr()).toMatch(new RegExp(`saved alpha at block ${block} in \\d+ ms`))

    const again = await start()
    expect(again.stderr()).toMatch(/alpha: .*resumed from its saved state/)
    expect(await head(again)).toBe(block)
    expect(await txOnChain(again, hash)).toMatchObject({ hash })
    expect(await indexedHashes(again, to)).toContain(hash)
    expect(await again.stop()).toBe(0)

    const fresh = await start(['--fresh'])
    expect(fresh.stderr()).toMatch(/the saved chains were forgotten/)
    expect(await head(fresh)).toBe(seedHead)
    expect(await txOnChain(fresh, hash)).toBeNull()
    expect(await indexedHashes(fresh, to)).not.toContain(hash)
  })

  it('after a crash (SIGKILL, no exit handler) resumes from the last periodic save', async () => {
    const first = await start(['--fresh', '--save-every', '0.2'])
    const to = first.info.demo_addresses.alpha!.empty!
    const r = await http<{ hash: string; block: number }>(`${first.info.base_url}/__sandbox/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ network: 'alpha', to, kind: 'native', after: 2 }),
    })
    const { hash, block } = r.json
    // --fresh removed every save: wait for the first one made after the transfer.
    await vi.waitFor(
      () =>
        expect(readFileSync(join(dir, readdirOne(dir, '7001-'), 'current'), 'utf8')).toMatch(new RegExp(`^h${block}-`)),
      {
        timeout: 20_000,
        interval: 100,
      },
    )
    process.kill(first.pid, 'SIGKILL')
    await first.exited

    const again = await start()
    expect(again.stderr()).toMatch(/alpha: .*resumed from its saved state/)
    expect(await head(again)).toBe(block)
    expect(await txOnChain(again, hash)).toMatchObject({ hash })
    expect(await indexedHashes(again, to)).toContain(hash)
  })

  it('refuses to start from a saved chain it cannot load, naming the reset, instead of falling back to the seed', async () => {
    const first = await start(['--fresh'])
    await http(`${first.info.base_url}/__sandbox/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ network: 'alpha', to: first.info.demo_addresses.alpha!.empty!, kind: 'native' }),
    })
    expect(await first.stop()).toBe(0)
    const chain = join(dir, readdirOne(dir, '7001-'))
    const current = readFileSync(join(chain, 'current'), 'utf8')
    writeFileSync(join(chain, current, 'manifest.json'), JSON.stringify({ head: 1, headHash: '0xdead' }))
    await expect(start()).rejects.toThrow(/could not be loaded.*Reset the sandbox to start again from its seed/)
  })
})

function readdirOne(root: string, prefix: string): string {
  const found = readdirSync(root).filter((n) => n.startsWith(prefix))
  expect(found).toHaveLength(1)
  return found[0]!
}
