import { decodeAbiParameters, encodeFunctionData, hexToString, parseAbi, type Hex } from 'viem'
import type { RpcClient } from '../chain/rpc-client'
import { ChainRpcError } from '../chain/rpc-client'
import { decodeInput } from './input'
import { decodeTransfers, type RawLog } from './logs'
import type { ChainStore } from './store'
import { summariseTrace, type CallFrame } from './trace'
import type { TokenRecord, TxRecord } from './types'

interface RawTx {
  hash: string
  from: string
  to: string | null
  value: string
  nonce: string
  gas: string
  type: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  input: string
  transactionIndex: string
}
interface RawBlock {
  number: string
  hash: string
  timestamp: string
  baseFeePerGas?: string
  transactions: RawTx[]
}
interface RawReceipt {
  status: string
  gasUsed: string
  effectiveGasPrice: string
  contractAddress: string | null
  logs: RawLog[]
}

const CHUNK = 20
const dec = (hex: string | undefined): string => BigInt(hex ?? '0x0').toString()
const META_ABI = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
])

/**
 * Follows one chain: for each new block, the block with its transactions, the receipts
 * (status, gas, logs) and a callTracer trace (internal errors, revert reasons, created
 * contracts), fetched as one JSON-RPC batch per 20 blocks. Token metadata comes from eth_call.
 */
export class Indexer {
  private running: Promise<number> | null = null

  constructor(
    private readonly rpc: RpcClient,
    readonly store: ChainStore,
  ) {}

  /** Indexes every block up to the chain's head; concurrent calls share one run. Returns the head. */
  catchUp(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async run(): Promise<number> {
    let head = Number(await this.rpc.call<string>('eth_blockNumber'))
    while (this.store.head < head) {
      const from = this.store.head + 1
      const to = Math.min(head, from + CHUNK - 1)
      await this.indexRange(from, to)
      if (this.store.head >= head) head = Number(await this.rpc.call<string>('eth_blockNumber'))
    }
    return this.store.head
  }

  private async indexRange(from: number, to: number): Promise<void> {
    const numbers = Array.from({ length: to - from + 1 }, (_, i) => `0x${(from + i).toString(16)}`)
    const replies = await this.rpc.batchSettled([
      ...numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [n, true] })),
      ...numbers.map((n) => ({ method: 'eth_getBlockReceipts', params: [n] })),
      ...numbers.map((n) => ({ method: 'debug_traceBlockByNumber', params: [n, { tracer: 'callTracer' }] })),
    ])
    const touched = new Set<string>()
    const fresh: TokenRecord[] = []
    for (let i = 0; i < numbers.length; i++) {
      const block = replies[i] as RawBlock | ChainRpcError | null
      const receipts = replies[numbers.length + i] as RawReceipt[] | ChainRpcError
      if (block instanceof ChainRpcError) throw block
      if (receipts instanceof ChainRpcError) throw receipts
      if (!block) throw new ChainRpcError('eth_getBlockByNumber', -32000, `block ${numbers[i]} not found`)
      // Traces can be missing (anvil keeps states for recent blocks only); fields then degrade
      // to "no internal error, no reason" instead of stopping the indexer.
      const traced = replies[2 * numbers.length + i]
      const traces = Array.isArray(traced) ? (traced as { result?: CallFrame }[]) : []
      const timestamp = Number(block.timestamp)
      const intervalMs = Math.max(0, timestamp - this.store.headTimestamp) * 1000
      block.transactions.forEach((tx, position) => {
        const receipt = receipts[position]!
        const trace = summariseTrace(traces[position]?.result)
        const ok = receipt.status === '0x1'
        const created = ok && receipt.contractAddress ? receipt.contractAddress.toLowerCase() : null
        for (const [address, contract] of trace.created) this.store.contracts.set(address, contract)
        if (created && !this.store.contracts.has(created))
          this.store.contracts.set(created, { name: null, artifact: null })
        const to = tx.to?.toLowerCase() ?? null
        const { method, decoded } = to
          ? decodeInput(tx.input, this.store.contracts.get(to)?.artifact ?? null)
          : { method: null, decoded: null }
        const transfers = ok ? decodeTransfers(receipt.logs) : []
        for (const t of transfers) {
          touched.add(t.token)
          if (!this.store.tokens.has(t.token)) {
            const token: TokenRecord = {
              address: t.token,
              type: t.tokenType,
              name: null,
              symbol: null,
              decimals: null,
              totalSupply: null,
            }
            this.store.tokens.set(t.token, token)
            fresh.push(token)
          }
        }
        const record: TxRecord = {
          hash: tx.hash.toLowerCase(),
          block: Number(block.number),
          blockHash: block.hash,
          timestamp,
          intervalMs,
          position,
          from: tx.from.toLowerCase(),
          to,
          created,
          value: dec(tx.value),
          nonce: Number(tx.nonce),
          type: Number(tx.type),
          gasLimit: dec(tx.gas),
          gasPrice: dec(receipt.effectiveGasPrice),
          maxFeePerGas: tx.maxFeePerGas ? dec(tx.maxFeePerGas) : null,
          maxPriorityFeePerGas: tx.maxPriorityFeePerGas ? dec(tx.maxPriorityFeePerGas) : null,
          gasUsed: dec(receipt.gasUsed),
          baseFee: dec(block.baseFeePerGas),
          input: tx.input,
          ok,
          error: ok ? null : (trace.error ?? 'execution reverted'),
          revertReason: ok ? null : trace.revertReason,
          internalError: trace.internalError,
          method,
          decoded,
          transfers: transfers.map(({ tokenType: _type, ...rest }) => rest),
        }
        this.store.addTx(record)
      })
      this.store.setHead(Number(block.number), timestamp, block.hash)
    }
    await this.refreshTokens(fresh, touched)
  }

  /** Name, symbol and decimals once; total supply again whenever the token moved. */
  private async refreshTokens(fresh: TokenRecord[], touched: Set<string>): Promise<void> {
    const call = (to: string, functionName: 'name' | 'symbol' | 'decimals' | 'totalSupply') => ({
      method: 'eth_call',
      params: [{ to, data: encodeFunctionData({ abi: META_ABI, functionName }) }, 'latest'],
    })
    const metaCalls = fresh.flatMap((t) => [
      call(t.address, 'name'),
      call(t.address, 'symbol'),
      call(t.address, 'decimals'),
    ])
    const supplyTokens = [...touched].map((a) => this.store.tokens.get(a)!).filter(Boolean)
    const replies = await this.rpc.batchSettled([
      ...metaCalls,
      ...supplyTokens.map((t) => call(t.address, 'totalSupply')),
    ])
    fresh.forEach((token, i) => {
      token.name = readString(replies[3 * i])
      token.symbol = readString(replies[3 * i + 1])
      const decimals = readUint(replies[3 * i + 2])
      // NFTs have no decimals(); their amounts are whole units.
      token.decimals = token.type === 'ERC-20' ? (decimals?.toString() ?? null) : (decimals?.toString() ?? '0')
    })
    supplyTokens.forEach((token, i) => {
      const supply = readUint(replies[metaCalls.length + i])
      token.totalSupply = (supply ?? this.store.countedSupply(token)).toString()
    })
  }
}

function readString(reply: unknown): string | null {
  if (typeof reply !== 'string' || reply === '0x') return null
  try {
    return decodeAbiParameters([{ type: 'string' }], reply as Hex)[0]
  } catch {
    // Some old tokens return bytes32.
    try {
      return hexToString(reply as Hex, { size: 32 }).replace(/\0+$/, '') || null
    } catch {
      return null
    }
  }
}

function readUint(reply: unknown): bigint | null {
  if (typeof reply !== 'string' || reply.length < 3) return null
  try {
    return BigInt(reply.slice(0, 66))
  } catch {
    return null
  }
}
