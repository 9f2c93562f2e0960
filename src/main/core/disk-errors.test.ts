import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs, Notice } from '@shared/bridge/contract'
import { createCore, type Core } from './app-core'
import { json, startScriptedServer } from './testing/scripted-server'
import { balanceItem } from './testing/service-fixtures'
import { testCoreOptions } from './testing/core-options'

/**
 * A data folder whose disk refuses writes, through the bridge the windows use: a real full
 * tmpfs (ENOSPC) when this process may mount one (root, as in CI), else a real read-only
 * folder (EACCES; chmod does not stop root). No fs mocks: the failures are the kernel's.
 */
let server: Awaited<ReturnType<typeof startScriptedServer>>
let base: string
const cores: Core[] = []
const mounts: string[] = []

beforeAll(async () => {
  server = await startScriptedServer()
  server.script((_req, res) => json(res, 200, { items: [balanceItem()], next_page_params: null }))
  base = mkdtempSync(join(tmpdir(), 'disk-errors-'))
})
afterEach(async () => {
  try {
    for (const c of cores.splice(0)) await c.dispose()
  } finally {
    for (const m of mounts.splice(0)) execFileSync('umount', ['-l', m])
  }
})
afterAll(async () => {
  await server.close()
  rmSync(base, { recursive: true, force: true })
})

/** A folder on a 1 MiB tmpfs, and how to fill it up and free it again. */
function smallDisk(): { dir: string; refuse(): string; allow(): void } {
  const dir = mkdtempSync(join(base, 'data-'))
  if (process.getuid?.() === 0) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir])
    mounts.push(dir)
    const filler = join(dir, 'filler')
    return {
      dir,
      refuse: () => {
        try {
          writeFileSync(filler, Buffer.alloc(2 * 1024 * 1024))
        } catch {
          // ENOSPC: the filler took all the space there was.
        }
        return 'the disk is full'
      },
      allow: () => rmSync(filler, { force: true }),
    }
  }
  return {
    dir,
    refuse: () => {
      chmodSync(dir, 0o500)
      return 'not allowed to write'
    },
    allow: () => chmodSync(dir, 0o700),
  }
}

async function open(dir: string) {
  const core = await createCore(testCoreOptions(dir))
  cores.push(core)
  const notices: Notice[] = []
  core.bridge.subscribe((event, payload) => {
    if (event === 'notice') notices.push(payload as Notice)
  })
  const call = async <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw Object.assign(new Error(r.error.message), r.error)
    return r.value as BridgeCallOutputs[K]
  }
  return { call, notices }
}

type Call = Awaited<ReturnType<typeof open>>['call']

/** A service profile on the scripted server, active, with a session key; limits that let 30 calls run at once. */
async function useScriptedService(call: Call): Promise<void> {
  const profile = await call('profiles.save', {
    name: 'Local',
    baseUrl: server.url,
    rpcUrl: `${server.url}/rpc`,
    networks: [
      { name: 'alpha', label: 'Alpha' },
      { name: 'beta', label: 'Beta' },
    ],
    limits: { ratePerSecond: 1000, burst: 50, quotaPerDay: 100_000, scope: 'key' },
  })
  await call('profiles.activate', { id: profile.id })
  await call('key.set', { profileId: profile.id, key: 'disk-test-key-0123456789', sessionOnly: true })
}

const address = (i: number): string => `0x${(0xa0 + i).toString(16).padStart(40, '0')}`

describe('a data folder whose disk refuses writes', () => {
  it('keeps answering 30 concurrent calls from memory, tells the user once per file in plain words, and saves again once it can', async () => {
    const disk = smallDisk()
    const { call, notices } = await open(disk.dir)
    await useScriptedService(call)
    const list = await call('watchlists.create', { name: 'Before' })
    const words = disk.refuse()

    const answers = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => call('data.balances', { network: 'alpha', address: address(i) })),
    )
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([])
    expect(await call('limiter.state', {})).toMatchObject({ usedToday: 30 })

    // Told once per file, in words, never as a system error code.
    const told = notices.filter((n) => n.message.includes('could not save'))
    const whats = told.map((n) => /could not save the ([^:]+):/.exec(n.message)?.[1])
    expect(whats).toContain('daily request count')
    expect(new Set(whats).size).toBe(whats.length)
    for (const n of told) {
      expect(n.message).toContain(words)
      expect(n.message).not.toMatch(/E[A-Z]{3,}|\/tmp\//)
    }

    // A change the user makes is refused whole, with the reason; the lists stay as they were.
    await expect(call('watchlists.create', { name: 'During' })).rejects.toMatchObject({
      kind: 'internal',
      message: expect.stringContaining(`${words}`),
    })
    expect((await call('watchlists.list', {})).map((l) => l.name)).toEqual([list.name])

    // Space again: the next request's count reaches the file.
    disk.allow()
    for (let i = 0; i < 40; i++) await call('data.balances', { network: 'alpha', address: address(40 + i) })
    const saved = JSON.parse(readFileSync(join(disk.dir, 'quota.json'), 'utf8')) as {
      profiles: Record<string, { used: number }>
    }
    // The count is kept under the key's fingerprint (daily-quota.ts keyLedgerId).
    const keyCounts = Object.entries(saved.profiles).filter(([id]) => id.startsWith('key:'))
    expect(keyCounts).toHaveLength(1)
    expect(keyCounts[0]![1].used).toBeGreaterThanOrEqual(70)
    // Still once per file, counting what failed writes reported late (the cache writes after its answer).
    const toldInAll = notices.filter((n) => n.message.includes('could not save'))
    const whatsInAll = toldInAll.map((n) => /could not save the ([^:]+):/.exec(n.message)?.[1])
    expect(new Set(whatsInAll).size).toBe(whatsInAll.length)
    expect(whatsInAll.slice(0, whats.length)).toEqual(whats)
  }, 60_000)

  it('a file standing where the quota file must go (ENOTDIR/EISDIR, real even for root) does not stop the limiter', async () => {
    const dir = mkdtempSync(join(base, 'blocked-'))
    const { call, notices } = await open(dir)
    await useScriptedService(call)
    rmSync(join(dir, 'quota.json'), { force: true })
    mkdirSync(join(dir, 'quota.json', 'in-the-way'), { recursive: true })
    const answers = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => call('data.balances', { network: 'alpha', address: address(i) })),
    )
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([])
    expect(notices.filter((n) => n.message.includes('could not save the daily request count'))).toHaveLength(1)
    expect(existsSync(join(dir, 'quota.json', 'in-the-way'))).toBe(true)
  }, 60_000)

  it('a start on a full disk, or under a file, is refused in plain words and leaves no lock behind', async () => {
    const disk = smallDisk()
    const words = disk.refuse()
    await expect(open(disk.dir)).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`cannot use the data folder .*: .*${words}.*--data-dir`)),
    })
    expect(existsSync(join(disk.dir, 'chainscope.lock'))).toBe(false)
    disk.allow()
    await expect(open(disk.dir)).resolves.toBeTruthy()

    const file = join(base, 'a-file')
    writeFileSync(file, '')
    await expect(open(join(file, 'data'))).rejects.toMatchObject({
      message: expect.stringContaining('a file stands where the data folder (or a folder in it) should be'),
    })
  })
})
