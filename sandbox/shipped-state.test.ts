import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anvilVersion } from './app'
import { seedKey } from './chain/network'
import { CHAIN_IDS, parseOptions } from './config'
import { resolveAnvilBinary } from './paths'
import { SEED_FINGERPRINT } from './seed/fingerprint'
import { defaultShippedDir, readShippedIndex, unpackShipped } from './shipped-state'
import { cacheEntry, isComplete } from './state-cache'

/**
 * The shipped default seed (sandbox/seed-state) against the current plan, contracts and anvil:
 * when any of them changes, the first test fails until `npm run sandbox:seed-ship` is run.
 * The built sandbox starting from it is e2e/sandbox-shipped-state.spec.ts.
 */
let version: string
let tmp: string
beforeAll(() => {
  version = anvilVersion(resolveAnvilBinary())
  tmp = mkdtempSync(join(tmpdir(), 'shipped-state-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const defaultSeedTxs = (): number => parseOptions([]).seedTxs

describe('shipped seed state', () => {
  it('is the default seed of the current plan, contracts and anvil, pinned by the fingerprint', () => {
    const index = readShippedIndex(defaultShippedDir())
    expect(
      index,
      'sandbox/seed-state/shipped.json is missing or malformed: run npm run sandbox:seed-ship',
    ).not.toBeNull()
    expect(index!.anvilVersion).toBe(version)
    for (const chainId of CHAIN_IDS) {
      const { key } = seedKey(chainId, defaultSeedTxs(), version)
      expect(
        index!.entries[String(chainId)],
        `chain ${chainId}: the shipped state is stale; run npm run sandbox:seed-ship`,
      ).toBe(key)
      const manifest = JSON.parse(
        readFileSync(join(defaultShippedDir(), `${chainId}-${key}`, 'manifest.json'), 'utf8'),
      ) as { head: number; headHash: string }
      expect({ head: manifest.head, headHash: manifest.headHash }).toEqual(SEED_FINGERPRINT[chainId])
    }
  })

  it('unpacks into a complete cache entry when the key matches', async () => {
    const chainId = CHAIN_IDS[0]
    const { key } = seedKey(chainId, defaultSeedTxs(), version)
    const entry = cacheEntry(join(tmp, 'ok'), chainId, key)
    expect(await unpackShipped(defaultShippedDir(), entry, chainId, key, version)).toEqual({ ok: true })
    expect(isComplete(entry)).toBe(true)
    expect(readFileSync(entry.anvilState, 'utf8').startsWith('{')).toBe(true)
  })

  it('is not used by another anvil version, and says why', async () => {
    const chainId = CHAIN_IDS[0]
    const other = 'anvil Version: 0.0.1 Commit SHA: 0000'
    const { key } = seedKey(chainId, defaultSeedTxs(), other)
    const entry = cacheEntry(join(tmp, 'anvil'), chainId, key)
    const result = await unpackShipped(defaultShippedDir(), entry, chainId, key, other)
    expect(result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/made with .*1\.\d+.*this anvil is "anvil Version: 0\.0\.1/),
    })
    expect(isComplete(entry)).toBe(false)
  })

  it('is not used for a larger seed', async () => {
    const chainId = CHAIN_IDS[1]
    const { key } = seedKey(chainId, defaultSeedTxs() + 100, version)
    const result = await unpackShipped(
      defaultShippedDir(),
      cacheEntry(join(tmp, 'larger'), chainId, key),
      chainId,
      key,
      version,
    )
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/another seed plan/) })
  })

  it('refuses a shipped state whose manifest does not match the pinned fingerprint', async () => {
    const chainId = CHAIN_IDS[1]
    const { key } = seedKey(chainId, defaultSeedTxs(), version)
    const copy = join(tmp, 'tampered-ship')
    cpSync(defaultShippedDir(), copy, { recursive: true })
    const manifestFile = join(copy, `${chainId}-${key}`, 'manifest.json')
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { headHash: string }
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, headHash: `0x${'0'.repeat(64)}` }))
    const entry = cacheEntry(join(tmp, 'tampered'), chainId, key)
    expect(await unpackShipped(copy, entry, chainId, key, version)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/pinned fingerprint/),
    })
    expect(isComplete(entry)).toBe(false)
  })

  it('reports a corrupt archive instead of throwing', async () => {
    const chainId = CHAIN_IDS[0]
    const { key } = seedKey(chainId, defaultSeedTxs(), version)
    const copy = join(tmp, 'corrupt-ship')
    cpSync(defaultShippedDir(), copy, { recursive: true })
    writeFileSync(join(copy, `${chainId}-${key}`, 'index.json.gz'), 'not gzip')
    const entry = cacheEntry(join(tmp, 'corrupt'), chainId, key)
    expect(await unpackShipped(copy, entry, chainId, key, version)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/unreadable/),
    })
    expect(isComplete(entry)).toBe(false)
  })
})
