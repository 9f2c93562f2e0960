import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Address } from 'viem'
import { ARTIFACTS } from '../contracts/artifacts'
import { Indexer } from '../index/indexer'
import { ChainStore, SNAPSHOT_VERSION, type StoreSnapshot } from '../index/store'
import { buildSeedPlan, type SeedPlan } from '../seed/plan'
import {
  deriveAccounts,
  GENESIS_TIMESTAMP,
  rolesFrom,
  SEED_ACCOUNTS,
  SEED_BALANCE,
  SEED_MNEMONIC,
  type Roles,
} from '../seed/roles'
import { executePlan } from '../seed/seeder'
import { readShippedIndex, unpackShipped } from '../shipped-state'
import { savedEntry } from '../live-state-files'
import { cacheEntry, cacheKey, isComplete, pruneOtherEntries, withEntryLock, writeEntry } from '../state-cache'
import { startAnvil, type AnvilChain } from './anvil'

export interface NetworkSpec {
  /** Lowercase path segment, e.g. "alpha". Only the position and chain id shape the chain. */
  name: string
  chainId: number
  /** Static demo rate of the native coin, or null: the sandbox has no market. */
  coinRate: string | null
}

export interface SeedManifest {
  chainId: number
  roles: Roles
  contracts: SeedPlan['contracts']
  /** Transactions the busy address appears in, as indexed. */
  whaleTxs: number
  totalTxs: number
  head: number
  headHash: string
  seedMs: number
}

export interface Network {
  spec: NetworkSpec
  anvil: AnvilChain
  store: ChainStore
  indexer: Indexer
  manifest: SeedManifest
  /** True when this start seeded the chain (no cache entry existed). */
  seeded: boolean
  /**
   * Where the chain came from: seeded now, the state dir's cache, the shipped state (unpacked
   * into the cache), or the chain this sandbox saved before (`--live-state`, live-state.ts).
   */
  source: 'seeded' | 'cache' | 'shipped' | 'saved'
  /** The seed's cache key (seedKey): a saved chain is kept under it. */
  key: string
}

export interface PrepareOptions {
  spec: NetworkSpec
  anvilBin: string
  anvilVersion: string
  stateDir: string
  whaleTxs: number
  onProgress(progress: { stage: string; done?: number; total?: number }): void
  /** The shipped default seed (sandbox/shipped-state.ts), or null to always seed. Default: none. */
  shippedDir?: string | null
  /** Why the shipped state was not used, when it was not. */
  log?(message: string): void
  /** `--live-state DIR`: resume from the chain saved there, when there is one for this seed. */
  liveStateDir?: string | null
}

/** The cache key of a chain: everything that shapes it, so a change anywhere reseeds. */
export function seedKey(
  chainId: number,
  whaleTxs: number,
  anvilVersion: string,
): { key: string; plan: SeedPlan; roles: Roles } {
  const roles = rolesFrom(deriveAccounts(SEED_MNEMONIC, SEED_ACCOUNTS))
  const plan = buildSeedPlan({ chainId, roles, whaleTxs, genesisTimestamp: GENESIS_TIMESTAMP })
  const key = cacheKey({
    plan: plan.blocks,
    artifacts: ARTIFACTS,
    anvil: anvilVersion,
    snapshot: SNAPSHOT_VERSION,
    mnemonic: SEED_MNEMONIC,
    accounts: SEED_ACCOUNTS,
    balance: SEED_BALANCE,
  })
  return { key, plan, roles }
}

/**
 * Starts one network: from the cache when an entry for this exact plan exists (anvil
 * --load-state plus the index snapshot: no replay, no re-indexing), otherwise by seeding a
 * fresh anvil, indexing it and saving the entry; that anvil then simply keeps running.
 */
export async function prepareNetwork(options: PrepareOptions): Promise<Network> {
  const { spec } = options
  const { key, plan, roles } = seedKey(spec.chainId, options.whaleTxs, options.anvilVersion)
  mkdirSync(options.stateDir, { recursive: true })
  const entry = cacheEntry(options.stateDir, spec.chainId, key)
  const anvilOptions = {
    bin: options.anvilBin,
    chainId: spec.chainId,
    mnemonic: SEED_MNEMONIC,
    accounts: SEED_ACCOUNTS,
    balance: SEED_BALANCE,
    genesisTimestamp: GENESIS_TIMESTAMP,
  }
  const saved = options.liveStateDir
    ? savedEntry({ root: options.liveStateDir, chainId: spec.chainId, key, log: options.log })
    : null
  if (saved) {
    // Never a silent fall back to the seed: that is a reset, which the user chooses.
    const loaded = await loadNetwork(options, saved.anvilState, saved.index, saved.manifest, anvilOptions).catch(
      (error: unknown) => {
        throw new Error(
          `${spec.name}: the chain this sandbox saved (${saved.dir}) could not be loaded: ${error instanceof Error ? error.message : String(error)}. Reset the sandbox to start again from its seed.`,
        )
      },
    )
    return { ...loaded, source: 'saved', key }
  }
  let source = 'cache' as Network['source']
  await withEntryLock(
    entry,
    () => isComplete(entry),
    async (): Promise<void> => {
      if (options.shippedDir) {
        if (readShippedIndex(options.shippedDir)?.entries[String(spec.chainId)] === key)
          options.onProgress({ stage: 'unpacking' })
        const unpacked = await unpackShipped(options.shippedDir, entry, spec.chainId, key, options.anvilVersion)
        if (unpacked.ok) {
          source = 'shipped'
          pruneOtherEntries(options.stateDir, spec.chainId, key)
          return
        }
        options.log?.(`${spec.name}: seeding, not using the shipped state: ${unpacked.reason}`)
      }
      const started = Date.now()
      // The seeding anvil writes its state with every block's on exit: a chain loaded from it
      // traces the seeded transactions (docs/decisions/seeded-traces.md).
      const dumpOnExit = join(options.stateDir, `.${spec.chainId}-${key}-${process.pid}.dump.json`)
      const anvil = await startAnvil({ ...anvilOptions, dumpOnExit })
      try {
        const accounts = await anvil.rpc.call<string[]>('eth_accounts')
        if (accounts[1]?.toLowerCase() !== roles.whale.toLowerCase())
          throw new Error('anvil derived other accounts from the seed mnemonic')
        options.onProgress({ stage: 'seeding', done: 0, total: plan.totalTxs })
        await executePlan(anvil.rpc, plan, (p) => options.onProgress({ stage: 'seeding', ...p }))
        const store = new ChainStore(GENESIS_TIMESTAMP)
        const indexer = new Indexer(anvil.rpc, store)
        options.onProgress({ stage: 'indexing', done: 0, total: plan.blocks.length })
        await indexer.catchUp()
        const whaleTxs = store.txCountOf(roles.whale)
        if (whaleTxs < options.whaleTxs)
          throw new Error(`the busy address has ${whaleTxs} transactions, the plan promised ${options.whaleTxs}`)
        const manifest: SeedManifest = {
          chainId: spec.chainId,
          roles,
          contracts: plan.contracts,
          whaleTxs,
          totalTxs: store.txs.length,
          head: store.head,
          headHash: store.headHash,
          seedMs: Date.now() - started,
        }
        options.onProgress({ stage: 'saving' })
        await anvil.stop()
        if (!existsSync(dumpOnExit)) throw new Error(`anvil wrote no state to ${dumpOnExit} when it stopped`)
        writeEntry(entry, {
          anvilState: readFileSync(dumpOnExit, 'utf8'),
          index: JSON.stringify(store.toSnapshot()),
          manifest: JSON.stringify(manifest, null, 1),
        })
        pruneOtherEntries(options.stateDir, spec.chainId, key)
        // The chain goes on from what was saved, as every later start does.
        source = 'seeded'
      } catch (error) {
        await anvil.stop()
        throw error
      } finally {
        rmSync(dumpOnExit, { force: true })
      }
    },
    () => options.onProgress({ stage: 'waiting for another sandbox to finish seeding' }),
  )
  const loaded = await loadNetwork(options, entry.anvilState, entry.index, entry.manifest, anvilOptions)
  return { ...loaded, seeded: source === 'seeded', source, key }
}

async function loadNetwork(
  options: PrepareOptions,
  anvilState: string,
  indexFile: string,
  manifestFile: string,
  anvilOptions: Parameters<typeof startAnvil>[0],
): Promise<Omit<Network, 'source' | 'key'>> {
  options.onProgress({ stage: 'loading' })
  // Every block's state is loaded too (traces of seeded transactions): seconds on a busy machine.
  const anvilPromise = startAnvil({ ...anvilOptions, loadState: anvilState, readyTimeoutMs: 120_000 })
  const store = ChainStore.fromSnapshot(JSON.parse(readFileSync(indexFile, 'utf8')) as StoreSnapshot)
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as SeedManifest
  const anvil = await anvilPromise
  const head = await anvil.rpc.call<{ hash: string }>('eth_getBlockByNumber', [
    `0x${manifest.head.toString(16)}`,
    false,
  ])
  if (head?.hash !== manifest.headHash) {
    await anvil.stop()
    throw new Error(
      `the cached chain ${anvilState} does not match its index (head ${manifest.head}); delete the state dir and start again`,
    )
  }
  return { spec: options.spec, anvil, store, indexer: new Indexer(anvil.rpc, store), manifest, seeded: false }
}

export function demoAddresses(manifest: SeedManifest): Record<string, Address> {
  const { roles, contracts } = manifest
  return {
    whale: roles.whale,
    holder: roles.holder,
    contract: contracts.router,
    empty: roles.empty,
    deployer: roles.deployer,
    counterparty: roles.counterparties[0]!,
    token_erc20: contracts.sgov,
    token_erc20_6: contracts.sdl,
    token_erc20_0: contracts.bar,
    token_erc721: contracts.punk,
    token_erc1155: contracts.item,
    vault: contracts.vault,
    registry: contracts.registry,
    proxy: contracts.proxy,
  }
}
