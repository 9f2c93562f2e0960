import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { anvilVersion, startSandbox } from './app'
import { seedKey } from './chain/network'
import { parseOptions, UsageError } from './config'
import { resolveAnvilBinary } from './paths'
import { SEED_FINGERPRINT } from './seed/fingerprint'
import { defaultShippedDir, writeShipped } from './shipped-state'
import { cacheEntry } from './state-cache'

/**
 * `npm run sandbox:seed-ship`: seeds the default chains from scratch (never from a cache or
 * the shipped state) in a temporary folder, checks them against the pinned fingerprint and
 * replaces sandbox/seed-state with them. Run it after changing the seed plan, the contracts
 * or the anvil version; sandbox/shipped-state.test.ts fails until you do.
 */
const log = (message: string): void => {
  process.stderr.write(`sandbox: ${message}\n`)
}

const stateDir = mkdtempSync(join(tmpdir(), 'sandbox-seed-ship-'))
try {
  const options = { ...parseOptions(['--state-dir', stateDir]), blockTimeS: 0 }
  const sandbox = await startSandbox(
    options,
    { progress: (p) => process.stderr.write(`sandbox-progress ${JSON.stringify(p)}\n`), log },
    { shippedDir: null },
  )
  await sandbox.stop()
  const mismatched = sandbox.networks.filter((n) => {
    const pinned = SEED_FINGERPRINT[n.spec.chainId]
    return pinned?.head !== n.manifest.head || pinned.headHash !== n.manifest.headHash
  })
  if (mismatched.length > 0) {
    for (const n of mismatched)
      log(
        `chain ${n.spec.chainId}: head ${n.manifest.head} ${n.manifest.headHash} differs from sandbox/seed/fingerprint.ts`,
      )
    log('the seed changed: if that is intended, put these values in sandbox/seed/fingerprint.ts and run this again')
    process.exitCode = 1
  } else {
    const version = anvilVersion(resolveAnvilBinary())
    const entries = sandbox.networks.map((n) => {
      const { key } = seedKey(n.spec.chainId, options.seedTxs, version)
      return { chainId: n.spec.chainId, key, entry: cacheEntry(stateDir, n.spec.chainId, key) }
    })
    writeShipped(defaultShippedDir(), version, entries)
    log(`wrote ${defaultShippedDir()} (${entries.map((e) => `${e.chainId}-${e.key}`).join(', ')})`)
  }
} catch (error) {
  log(
    error instanceof UsageError
      ? error.message
      : `seeding failed: ${error instanceof Error ? error.message : String(error)}`,
  )
  process.exitCode = 1
} finally {
  rmSync(stateDir, { recursive: true, force: true })
}
