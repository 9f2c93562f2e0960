import { readdirSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import type { LiveChain } from './chain/live'
import type { Network } from './chain/network'
import { chainDir } from './live-state-files'

/** Saving the live chains (`--live-state`); the layout and the reading side are in live-state-files.ts. */
const gunzipAsync = promisify(gunzip)

/**
 * Saves one network now; answers the head hash it saved. Call it between blocks
 * (LiveChain.exclusive) or once block production stopped.
 */
export async function saveNetwork(root: string, network: Network): Promise<string> {
  const { store, anvil, manifest, spec, key } = network
  const dump = await anvil.rpc.call<string>('anvil_dumpState')
  const headHash = store.headHash
  const dir = chainDir(root, spec.chainId, key)
  const name = `h${store.head}-${Date.now()}`
  const tmp = join(dir, `${name}.tmp`)
  await rm(tmp, { recursive: true, force: true })
  await mkdir(tmp, { recursive: true })
  await writeFile(join(tmp, 'anvil-state.json'), await gunzipAsync(Buffer.from(dump.slice(2), 'hex')))
  await writeFile(join(tmp, 'index.json'), JSON.stringify(store.toSnapshot()))
  const saved = { ...manifest, head: store.head, headHash, totalTxs: store.txs.length }
  await writeFile(join(tmp, 'manifest.json'), JSON.stringify(saved, null, 1))
  await rename(tmp, join(dir, name))
  await writeFile(join(dir, 'current.tmp'), name)
  await rename(join(dir, 'current.tmp'), join(dir, 'current'))
  for (const other of readdirSync(dir))
    if (other !== name && other !== 'current') await rm(join(dir, other), { recursive: true, force: true })
  return headHash
}

/**
 * Saves each network whose head moved, every `everyMs` (between blocks), and once more on
 * stop, after block production ended.
 */
export class LiveSaver {
  readonly #saved = new Map<Network, string>()
  #timer: NodeJS.Timeout | null = null
  #running: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly o: {
      root: string
      chains: { network: Network; live: LiveChain }[]
      log(message: string): void
      /** Between saves while running (`--save-every`): a crash loses at most this much of the live chain. */
      everyMs: number
    },
  ) {
    for (const { network } of o.chains) this.#saved.set(network, network.store.headHash)
  }

  start(): void {
    let busy = false
    this.#timer = setInterval(() => {
      // A save slower than the interval is not queued behind itself again and again.
      if (busy) return
      busy = true
      this.#running = this.#saveMoved(true).finally(() => (busy = false))
    }, this.o.everyMs)
    this.#timer.unref()
  }

  /** The final save: call after the live chains stopped. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer)
    await this.#running
    const started = performance.now()
    const saved = await this.#saveMoved(false)
    if (saved.length > 0) this.o.log(`saved ${saved.join(' and ')} in ${Math.round(performance.now() - started)} ms`)
  }

  /** Both networks at once; answers what it saved ("alpha at block 812"). */
  async #saveMoved(betweenBlocks: boolean): Promise<string[]> {
    const saved = await Promise.all(
      this.o.chains.map(async ({ network, live }) => {
        if (this.#saved.get(network) === network.store.headHash) return null
        const save = (): Promise<string> => saveNetwork(this.o.root, network)
        try {
          this.#saved.set(network, await (betweenBlocks ? live.exclusive(save) : save()))
          return `${network.spec.name} at block ${network.store.head}`
        } catch (error) {
          this.o.log(
            `${network.spec.name}: could not save the chain: ${error instanceof Error ? error.message : String(error)}`,
          )
          return null
        }
      }),
    )
    return saved.filter((s): s is string => s !== null)
  }
}
