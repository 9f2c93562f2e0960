import { spawnSync } from 'node:child_process'
import { LiveChain } from './chain/live'
import { demoAddresses, prepareNetwork, type Network } from './chain/network'
import type { SandboxOptions } from './config'
import { CHAIN_IDS, COIN_RATES, coinOf, MULTICALL3_AT } from './config'
import { installMulticall3 } from './chain/multicall3'
import type { MarketInfo } from './api/format'
import type { TransferHook } from './api/admin-transfer'
import { startServer, type SandboxServer, type ServedNetwork } from './api/server'
import { loadReplay } from './api/replay'
import { resolveAnvilBinary } from './paths'
import { defaultShippedDir } from './shipped-state'
import { TOKENS } from './seed/tokens'
import type { SandboxInfo } from '@shared/domain/sandbox-info'
import { LiveSaver } from './live-state'
import { clearLiveState } from './live-state-files'

export type { SandboxInfo }

export interface RunningSandbox {
  info: SandboxInfo
  networks: Network[]
  lives: LiveChain[]
  server: SandboxServer
  stop(): Promise<void>
}

export interface Reporter {
  progress(p: { stage: string; network?: string; done?: number; total?: number }): void
  log(message: string): void
}

export function anvilVersion(bin: string): string {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 })
  if (r.status !== 0) throw new Error(`${bin} --version failed: ${r.stderr || r.error?.message}`)
  return r.stdout.trim().split('\n').slice(0, 2).join(' ')
}

/** Per-token demo market data keyed by the seeded contract address. */
function marketOf(network: Network, baseUrl: string): Map<string, MarketInfo> {
  const map = new Map<string, MarketInfo>()
  for (const def of TOKENS) {
    const address = network.manifest.contracts[def.key].toLowerCase()
    map.set(address, {
      exchangeRate: def.market?.exchangeRate ?? null,
      volume24h: def.market?.volume24h ?? null,
      iconUrl: def.icon ? `${baseUrl}/static/icons/${def.symbol.toLowerCase()}.svg` : null,
    })
  }
  return map
}

export interface StartExtras {
  /** The shipped default seed to unpack when the cache has no entry; null always seeds. Default sandbox/seed-state. */
  shippedDir?: string | null
}

export async function startSandbox(
  options: SandboxOptions,
  report: Reporter,
  extras: StartExtras = {},
): Promise<RunningSandbox> {
  const started = Date.now()
  const bin = resolveAnvilBinary()
  const version = anvilVersion(bin)
  const served = new Map<string, ServedNetwork>()
  const transfer: { hook: TransferHook | null } = { hook: null }
  // Read before anything starts: a bad replay folder is a usage error, not a half-started sandbox.
  const replay = options.replay ? await loadReplay(options.replay) : undefined
  if (replay)
    report.log(
      `replaying ${replay.transactions?.length ?? 0} transactions and ${replay.balances?.length ?? 0} balances for ${replay.address}`,
    )
  const server = await startServer({
    replay,
    port: options.port,
    apiKeys: [options.apiKey],
    limits: { rate: options.rate, burst: options.burst, quota: options.quota },
    admin: options.admin,
    noBatch: options.noBatch,
    modes: options.modes,
    transfer,
    plainErrors: options.plainErrors,
    networks: served,
    log: report.log,
  })
  if (options.fresh && options.liveStateDir) {
    clearLiveState(options.liveStateDir)
    report.log('starting from the seed: the saved chains were forgotten (--fresh)')
  }
  const settled = await Promise.allSettled(
    options.networks.map((name, position) =>
      prepareNetwork({
        spec: { name, chainId: CHAIN_IDS[position]!, coinRate: COIN_RATES[position] ?? null },
        anvilBin: bin,
        anvilVersion: version,
        stateDir: options.stateDir,
        whaleTxs: options.seedTxs,
        onProgress: (p) => report.progress({ ...p, network: name }),
        shippedDir: extras.shippedDir === undefined ? defaultShippedDir() : extras.shippedDir,
        log: report.log,
        liveStateDir: options.liveStateDir,
      }),
    ),
  )
  const networks = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed) {
    await Promise.all(networks.map((n) => n.anvil.stop()))
    await server.close()
    throw failed.reason
  }
  await Promise.all(
    networks.map(async (network, position) => {
      if (!MULTICALL3_AT[position]) return
      // Without it the network is simply one without Multicall3: worth a log line, not a failed start.
      await installMulticall3(network.anvil.rpc).catch((error: unknown) =>
        report.log(
          `${network.spec.name}: Multicall3 not installed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
    }),
  )
  const lives: LiveChain[] = []
  for (const network of networks) {
    const live = new LiveChain(network, { blockTimeS: options.blockTimeS, log: report.log })
    served.set(network.spec.name, {
      ctx: {
        store: network.store,
        market: marketOf(network, server.url),
        coinRate: network.spec.coinRate,
        pending: () => live.pending,
      },
      rpc: network.anvil.rpc,
    })
    live.start()
    lives.push(live)
    report.log(
      `${network.spec.name}: chain ${network.spec.chainId} (anvil ${network.anvil.url}), ${network.store.txs.length} transactions to block ${network.store.head}, ` +
        (network.seeded
          ? `seeded in ${(network.manifest.seedMs / 1000).toFixed(1)} s`
          : network.source === 'shipped'
            ? 'loaded from the shipped state'
            : network.source === 'saved'
              ? 'resumed from its saved state'
              : 'loaded from cache'),
    )
    void network.anvil.exited.then((code) => {
      if (!stopping) report.log(`${network.spec.name}: anvil exited unexpectedly (code ${code})`)
    })
  }
  transfer.hook = (input) => {
    const live = lives[networks.findIndex((n) => n.spec.name === input.network)]
    if (!live) throw new Error(`no live chain for ${input.network}`)
    return live.transfer(input)
  }
  const saver = options.liveStateDir
    ? new LiveSaver({
        root: options.liveStateDir,
        chains: networks.map((network, i) => ({ network, live: lives[i]! })),
        log: report.log,
        everyMs: options.saveEveryS * 1000,
      })
    : null
  saver?.start()
  report.log(`ready in ${((Date.now() - started) / 1000).toFixed(2)} s`)
  let stopping = false
  const stop = async (): Promise<void> => {
    if (stopping) return
    stopping = true
    await Promise.all(lives.map((l) => l.stop()))
    // Blocks have stopped: the last save holds the chain as it ends.
    await saver?.stop()
    await server.close()
    await Promise.all(networks.map((n) => n.anvil.stop()))
  }
  return {
    info: {
      base_url: server.url,
      rpc_url: `${server.url}/rpc`,
      networks: [...options.networks],
      api_key: options.apiKey,
      billing: options.modes.billing,
      // Each network's coin as a client may show it (the spec names none): its name in capitals.
      coins: Object.fromEntries(networks.map((n) => [n.spec.name, coinOf(n.spec.name)])),
      demo_addresses: Object.fromEntries(networks.map((n) => [n.spec.name, demoAddresses(n.manifest)])),
    },
    networks,
    lives,
    server,
    stop,
  }
}
