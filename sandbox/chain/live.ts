import { encodeFunctionData, getAddress, parseAbi, toHex, type Address } from 'viem'
import type { TransferInput, TransferResult } from '../api/admin-transfer'
import type { Network } from './network'

export interface LiveOptions {
  /** Mean seconds between blocks; 0 stops block production. Default 2. */
  blockTimeS: number
  /** Each block lands within ± jitter × blockTime / 2 of its slot, default 0.5. */
  jitter?: number
  log(message: string): void
}

/** A transaction sent but never mined (a nonce gap keeps it waiting), listed as pending by the data API. */
export interface PendingTx {
  hash: string
  from: string
  to: string
  value: string
  nonce: number
  gasLimit: string
  maxFeePerGas: string
  maxPriorityFeePerGas: string
}

const TRANSFER_ABI = parseAbi(['function transfer(address to, uint256 amount) returns (bool)'])
const MINT_ABI = parseAbi(['function mint(address to, uint256 amount)'])
const MINT_1155_ABI = parseAbi(['function mint(address to, uint256 id, uint256 amount)'])
const SPLIT_ABI = parseAbi(['function splitEther(address[] recipients) payable'])
const GWEI = 1_000_000_000n

/**
 * Keeps a network alive: mines a block per slot with 0-4 background transfers
 * (coin and ERC-20, among the counterparty and background accounts only, so the demo
 * addresses' histories stay exactly as seeded), at wall-clock timestamps, with a drifting
 * base fee, and has the indexer follow each block.
 */
export class LiveChain {
  private timer: NodeJS.Timeout | null = null
  private startedAt = 0
  private slot = 0
  private stopped = false
  private baseFeeGwei = 15
  private busy: Promise<void> = Promise.resolve()
  private mintedIds = 0
  private firstDone = false
  /**
   * Transactions waiting in the mempool, newest first. Blockscout lists pending transactions
   * before mined ones; the data API does the same with these.
   */
  readonly pending: PendingTx[] = []

  constructor(
    private readonly network: Network,
    private readonly options: LiveOptions,
  ) {}

  start(): void {
    this.startedAt = Date.now()
    if (this.options.blockTimeS > 0) this.schedule()
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    await this.busy
  }

  /**
   * Slot-based, like proof-of-stake networks (Ethereum's 12 s slots): block k is due at
   * start + k × blockTime and the jitter is where it lands within its slot, so it does not
   * accumulate. Independent intervals (a random walk) would drift by about sqrt(t / 24) blocks
   * after t seconds at 2 s ± 50 %, which no real chain does and no client could extrapolate.
   */
  private schedule(): void {
    if (this.stopped) return
    const jitter = this.options.jitter ?? 0.5
    const slotMs = this.options.blockTimeS * 1000
    const now = Date.now()
    // After a slow block (a loaded machine), skip the slots already past, as a chain misses them.
    this.slot = Math.max(this.slot + 1, Math.floor((now - this.startedAt) / slotMs))
    const due = this.startedAt + this.slot * slotMs + (Math.random() * 2 - 1) * jitter * (slotMs / 2)
    const delay = Math.max(0, due - now)
    this.timer = setTimeout(() => {
      // Behind whatever is queued (a transfer, a save), never beside it.
      void this.exclusive(() => this.produce())
        .catch((error: unknown) =>
          this.options.log(`${this.network.spec.name}: block production failed: ${String(error)}`),
        )
        .finally(() => this.schedule())
    }, delay)
  }

  /**
   * The admin transfer (POST /__sandbox/transfer): sends it, then mines and indexes a block
   * at once. Queued behind block production so the two never mine at the same moment.
   */
  transfer(input: TransferInput): Promise<TransferResult> {
    return this.exclusive(() => this.sendAndMine(input))
  }

  /** Runs `fn` between blocks, queued behind block production and transfers (e.g. a save, live-state.ts). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.busy.then(fn)
    this.busy = run.then(
      () => undefined,
      () => undefined,
    )
    return run
  }

  private async sendAndMine(input: TransferInput): Promise<TransferResult> {
    const { anvil, manifest, store } = this.network
    const kind = input.kind ?? 'native'
    const to = getAddress(input.to)
    const fees = { maxFeePerGas: toHex(200n * GWEI), maxPriorityFeePerGas: toHex(GWEI) }
    let tx: Record<string, string>
    let token: Address | null = null
    if (kind === 'native') {
      tx = {
        from: manifest.roles.background[0]!,
        to,
        value: toHex(BigInt(input.amount ?? 10n ** 15n)),
        gas: toHex(21_000),
      }
    } else if (kind === 'erc20') {
      token = manifest.contracts.sdl
      const decimals = BigInt(store.tokens.get(token.toLowerCase())?.decimals ?? '0')
      const data = encodeFunctionData({
        abi: MINT_ABI,
        functionName: 'mint',
        args: [to, input.amount ? BigInt(input.amount) : 10n ** decimals],
      })
      tx = { from: manifest.roles.deployer, to: token, data, gas: toHex(120_000) }
    } else if (kind === 'erc721') {
      token = manifest.contracts.punk
      // Seeded ids are small; admin mints count up from a million so they never collide.
      this.mintedIds += 1
      const data = encodeFunctionData({
        abi: MINT_ABI,
        functionName: 'mint',
        args: [to, 1_000_000n + BigInt(Date.now() % 1_000_000) * 100n + BigInt(this.mintedIds)],
      })
      tx = { from: manifest.roles.deployer, to: token, data, gas: toHex(200_000) }
    } else if (kind === 'router-split') {
      const recipients = [to, ...manifest.roles.counterparties.slice(0, 2).map((a) => getAddress(a))]
      const data = encodeFunctionData({ abi: SPLIT_ABI, functionName: 'splitEther', args: [recipients] })
      const value = toHex(BigInt(input.amount ?? 3n * 10n ** 15n))
      tx = { from: manifest.roles.background[0]!, to: manifest.contracts.router, data, value, gas: toHex(250_000) }
    } else {
      token = manifest.contracts.item
      const data = encodeFunctionData({
        abi: MINT_1155_ABI,
        functionName: 'mint',
        args: [to, 1n, BigInt(input.amount ?? 1)],
      })
      tx = { from: manifest.roles.deployer, to: token, data, gas: toHex(200_000) }
    }
    if (input.after) await this.mineEmpty(input.after)
    const hash = await anvil.rpc.call<string>('eth_sendTransaction', [{ ...tx, ...fees }])
    await this.mineNow()
    return { hash, block: store.head, kind, token }
  }

  /**
   * Mines `blocks` empty blocks at once (anvil_mine, one slot apart), after a block that takes
   * whatever is pending; the index moves its head past them without reading them, as they hold
   * no transaction.
   */
  private async mineEmpty(blocks: number): Promise<void> {
    const { anvil, store } = this.network
    await this.mineNow()
    const slot = Math.max(1, Math.round(this.options.blockTimeS || 2))
    await anvil.rpc.call('anvil_mine', [toHex(blocks), toHex(slot)])
    const head = await anvil.rpc.call<{ number: string; timestamp: string; hash: string }>('eth_getBlockByNumber', [
      'latest',
      false,
    ])
    store.setHead(Number(head.number), Number(head.timestamp), head.hash.toLowerCase())
  }

  /** Mines one block now (also used by tests to move the chain on demand). */
  async produce(): Promise<void> {
    const { anvil, manifest, store } = this.network
    const rpc = anvil.rpc
    // The last background account is kept for the stuck pending transaction (its nonce gap
    // must never be filled); the others trade as before.
    const stuck = manifest.roles.background.at(-1)!
    const accounts: Address[] = [
      ...manifest.roles.counterparties,
      ...manifest.roles.background.filter((a) => a !== stuck),
    ]
    const count = Math.floor(Math.random() * 5)
    for (let i = 0; i < count; i++) {
      const from = pick(accounts)
      const to = pick(accounts.filter((a) => a !== from))
      const fees = { maxFeePerGas: toHex(200n * GWEI), maxPriorityFeePerGas: toHex(GWEI) }
      const isCounterparty = manifest.roles.counterparties.includes(from)
      if (isCounterparty && Math.random() < 0.4) {
        const token = pick([manifest.contracts.sdl, manifest.contracts.sgov, manifest.contracts.bar])
        const decimals = BigInt(store.tokens.get(token.toLowerCase())?.decimals ?? '0')
        const data = encodeFunctionData({
          abi: TRANSFER_ABI,
          functionName: 'transfer',
          args: [to, BigInt(1 + Math.floor(Math.random() * 50)) * 10n ** decimals],
        })
        await rpc.call('eth_sendTransaction', [{ from, to: token, data, gas: toHex(90_000), ...fees }])
      } else {
        const value = BigInt(1 + Math.floor(Math.random() * 900)) * 10n ** 15n
        // A quarter of coin transfers are legacy (type 0, gasPrice only), as real chains still carry.
        const pricing = Math.random() < 0.25 ? { gasPrice: toHex(200n * GWEI) } : fees
        await rpc.call('eth_sendTransaction', [{ from, to, value: toHex(value), gas: toHex(21_000), ...pricing }])
      }
    }
    if (!this.firstDone) {
      this.firstDone = true
      await this.sendFirstBlockShapes(stuck)
    }
    await this.mineNow()
  }

  private async mineNow(): Promise<void> {
    const { anvil, store, indexer } = this.network
    this.baseFeeGwei = Math.min(90, Math.max(3, this.baseFeeGwei * (0.88 + Math.random() * 0.24)))
    await anvil.rpc.call('anvil_setNextBlockBaseFeePerGas', [toHex(BigInt(Math.round(this.baseFeeGwei * 1e9)))])
    const timestamp = Math.max(Math.floor(Date.now() / 1000), store.headTimestamp + 1)
    await anvil.rpc.call('evm_mine', [{ timestamp }])
    await indexer.catchUp()
  }

  /**
   * The shapes e2e tests must meet without replay, for the demo counterparty (live traffic
   * only; the seeded history and its fingerprint are untouched): one legacy (type 0) transfer
   * in the first live block, and one transaction that stays pending for the sandbox's life
   * (sent with its sender's next nonce + 1, a gap nothing fills).
   */
  private async sendFirstBlockShapes(stuck: Address): Promise<void> {
    const rpc = this.network.anvil.rpc
    const { counterparties, background } = this.network.manifest.roles
    const to = counterparties[0]!
    await rpc.call('eth_sendTransaction', [
      { from: background[0]!, to, value: toHex(10n ** 15n), gas: toHex(21_000), gasPrice: toHex(200n * GWEI) },
    ])
    const nonceHex = await rpc.call('eth_getTransactionCount', [stuck, 'pending'])
    const nonce = Number(BigInt(String(nonceHex))) + 1
    const tx = {
      from: stuck,
      to,
      value: toHex(2n * 10n ** 15n),
      gas: toHex(21_000),
      nonce: toHex(nonce),
      maxFeePerGas: toHex(200n * GWEI),
      maxPriorityFeePerGas: toHex(GWEI),
    }
    const hash = await rpc.call('eth_sendTransaction', [tx])
    this.pending.unshift({
      hash: String(hash),
      from: stuck.toLowerCase(),
      to: to.toLowerCase(),
      value: (2n * 10n ** 15n).toString(),
      nonce,
      gasLimit: '21000',
      maxFeePerGas: (200n * GWEI).toString(),
      maxPriorityFeePerGas: GWEI.toString(),
    })
  }
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!
}
