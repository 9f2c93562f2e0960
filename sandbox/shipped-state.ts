import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompressSync, brotliDecompress, constants, gunzip, gzipSync } from 'node:zlib'
import { z } from 'zod'
import { packageRoot } from './paths'
import { SEED_FINGERPRINT } from './seed/fingerprint'
import { type CacheEntry, writeEntry } from './state-cache'

/**
 * The default seed's result, shipped gzipped in the repository (sandbox/seed-state/), so the
 * first start on a fresh clone loads in seconds instead of seeding both chains (~15 s alone,
 * far more on a busy machine). Layout: `shipped.json` (the anvil version it was made with and
 * the cache key per chain) and `<chain id>-<key>/{anvil-state.json.br,index.json.gz,manifest.json}`. The chain's state holds
 * every block's (so seeded transactions can be traced): brotli with a 16 MiB window finds the
 * blocks' near-identical states again, where gzip's 32 KiB window cannot (1 MB, not 20 MB, a chain).
 * Regenerate with `npm run sandbox:seed-ship`.
 *
 * Only an exact key match is used: the key hashes the plan, the contract artifacts, the anvil
 * version and the snapshot format, so any change there (a larger `--seed-txs`, an edited plan,
 * another anvil) seeds on demand with progress instead. Choice: an anvil of another version
 * never loads the shipped dump, even though it might read it — a dump it misreads would serve
 * a chain that silently differs from its index, while seeding costs only time.
 */

export const SHIPPED_FILE = 'shipped.json'
const gunzipAsync = promisify(gunzip)
const brotliAsync = promisify(brotliDecompress)
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 24 } }

const shippedSchema = z.object({
  anvilVersion: z.string(),
  entries: z.record(z.string().regex(/^\d+$/), z.string().regex(/^[0-9a-f]{16}$/)),
})
export type ShippedIndex = z.infer<typeof shippedSchema>

const manifestHead = z.looseObject({ chainId: z.number(), head: z.number(), headHash: z.string() })

export function defaultShippedDir(): string {
  return join(packageRoot(), 'sandbox', 'seed-state')
}

export function readShippedIndex(dir: string): ShippedIndex | null {
  try {
    return shippedSchema.parse(JSON.parse(readFileSync(join(dir, SHIPPED_FILE), 'utf8')))
  } catch {
    return null
  }
}

export type UnpackResult = { ok: true } | { ok: false; reason: string }

/**
 * Fills `entry` from the shipped state when it was made for exactly this key, after checking
 * its manifest against the pinned fingerprint (the loader then checks anvil's block at that
 * height against the manifest, so the chain served is the fingerprinted one).
 */
export async function unpackShipped(
  dir: string,
  entry: CacheEntry,
  chainId: number,
  key: string,
  anvilVersion: string,
): Promise<UnpackResult> {
  const index = readShippedIndex(dir)
  if (!index) return { ok: false, reason: `no shipped state in ${dir}` }
  const source = join(dir, `${chainId}-${key}`)
  if (index.entries[String(chainId)] !== key || !existsSync(source)) {
    if (index.anvilVersion !== anvilVersion)
      return {
        ok: false,
        reason: `the shipped state was made with "${index.anvilVersion}", this anvil is "${anvilVersion}"`,
      }
    return {
      ok: false,
      reason:
        'the shipped state is for another seed plan (a non-default --seed-txs, or the plan changed: run npm run sandbox:seed-ship)',
    }
  }
  try {
    const manifest = readFileSync(join(source, 'manifest.json'), 'utf8')
    const head = manifestHead.parse(JSON.parse(manifest))
    const pinned = SEED_FINGERPRINT[chainId]
    if (!pinned || head.chainId !== chainId || head.head !== pinned.head || head.headHash !== pinned.headHash) {
      return {
        ok: false,
        reason: `the shipped state of chain ${chainId} does not match the pinned fingerprint (sandbox/seed/fingerprint.ts)`,
      }
    }
    // Asynchronous: both networks unpack at once on the thread pool, not one after the other.
    const [anvilState, indexText] = await Promise.all([
      readFile(join(source, 'anvil-state.json.br')).then((b) => brotliAsync(b)),
      readFile(join(source, 'index.json.gz')).then((b) => gunzipAsync(b)),
    ])
    writeEntry(entry, { anvilState, index: indexText, manifest })
    return { ok: true }
  } catch (error) {
    return {
      ok: false,
      reason: `the shipped state of chain ${chainId} is unreadable: ${error instanceof Error ? error.message : String(error)}`,
    }
  }
}

/** Replaces the shipped state with the given cache entries (all chains at once). */
export function writeShipped(
  dir: string,
  anvilVersion: string,
  entries: { chainId: number; key: string; entry: CacheEntry }[],
): void {
  mkdirSync(dir, { recursive: true })
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true })
  for (const { chainId, key, entry } of entries) {
    const target = join(dir, `${chainId}-${key}`)
    mkdirSync(target)
    writeFileSync(join(target, 'anvil-state.json.br'), brotliCompressSync(readFileSync(entry.anvilState), BROTLI))
    writeFileSync(join(target, 'index.json.gz'), gzipSync(readFileSync(entry.index), { level: 9 }))
    writeFileSync(join(target, 'manifest.json'), readFileSync(entry.manifest))
  }
  const index: ShippedIndex = {
    anvilVersion,
    entries: Object.fromEntries(entries.map((e) => [String(e.chainId), e.key])),
  }
  writeFileSync(join(dir, SHIPPED_FILE), `${JSON.stringify(index, null, 1)}\n`)
}
