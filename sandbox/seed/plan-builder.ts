import { encodeDeployData, encodeFunctionData, getContractAddress, type Address, type Hex } from 'viem'
import { ARTIFACTS, type ContractName } from '../contracts/artifacts'
import { Prng } from './prng'

/** One transaction of the seed, fully pinned (nonce, gas, fees) so its hash repeats. */
export interface PlannedTx {
  from: Address
  to: Address | null
  nonce: number
  value: bigint
  data: Hex
  gas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** What the receipt must say; the seeder stops if the chain disagrees. */
  expect: 'ok' | 'revert'
  label: string
}

export interface PlannedBlock {
  timestamp: number
  baseFee: bigint
  txs: PlannedTx[]
}

const GWEI = 1_000_000_000n
export const MAX_FEE = 200n * GWEI
const PRIORITY_FEES = [1_000_000n, 100_000_000n, GWEI, 1_500_000_000n, 2n * GWEI]

export interface TxOptions {
  value?: bigint
  data?: Hex
  gas: bigint
  expect?: 'ok' | 'revert'
  label: string
}

/**
 * Accumulates blocks of transactions with explicit nonces, a random walk of base fees and
 * jittered block times, all drawn from one seeded PRNG.
 */
export class PlanBuilder {
  readonly blocks: PlannedBlock[] = []
  private current: PlannedTx[] = []
  private readonly nonces = new Map<Address, number>()
  private time: number
  private baseFeeGwei = 12

  constructor(
    readonly rng: Prng,
    genesisTimestamp: number,
  ) {
    this.time = genesisTimestamp
  }

  get pendingCount(): number {
    return this.current.length
  }

  get txCount(): number {
    return this.blocks.reduce((n, b) => n + b.txs.length, 0) + this.current.length
  }

  tx(from: Address, to: Address | null, options: TxOptions): PlannedTx {
    const nonce = this.nonces.get(from) ?? 0
    this.nonces.set(from, nonce + 1)
    const tx: PlannedTx = {
      from,
      to,
      nonce,
      value: options.value ?? 0n,
      data: options.data ?? '0x',
      gas: options.gas,
      maxFeePerGas: MAX_FEE,
      maxPriorityFeePerGas: this.rng.pick(PRIORITY_FEES),
      expect: options.expect ?? 'ok',
      label: options.label,
    }
    this.current.push(tx)
    return tx
  }

  call(
    from: Address,
    to: Address,
    contract: ContractName,
    functionName: string,
    args: readonly unknown[],
    options: Omit<TxOptions, 'data'>,
  ): PlannedTx {
    const data = encodeFunctionData({ abi: ARTIFACTS[contract].abi, functionName, args } as Parameters<
      typeof encodeFunctionData
    >[0])
    return this.tx(from, to, { ...options, data })
  }

  /** Deploys a contract and returns the address it will have (from the sender's nonce). */
  deploy(from: Address, contract: ContractName, args: readonly unknown[], gas: bigint, label: string): Address {
    const nonce = this.nonces.get(from) ?? 0
    const artifact = ARTIFACTS[contract]
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as Parameters<
      typeof encodeDeployData
    >[0])
    this.tx(from, null, { data, gas, label })
    return getContractAddress({ from, nonce: BigInt(nonce) })
  }

  /** Closes the current block: mostly 4-30 s after the previous one, sometimes a quiet hour. */
  endBlock(): void {
    if (this.current.length === 0) return
    this.time += this.rng.next() < 0.08 ? this.rng.int(600, 7200) : this.rng.int(4, 30)
    this.baseFeeGwei = Math.min(90, Math.max(3, this.baseFeeGwei * (0.85 + this.rng.next() * 0.3)))
    // Rounded to whole wei through integer arithmetic only, so every machine gets the same value.
    const baseFee = BigInt(Math.round(this.baseFeeGwei * 1000)) * 1_000_000n + BigInt(this.rng.int(0, 999_999))
    this.blocks.push({ timestamp: this.time, baseFee, txs: this.current })
    this.current = []
  }
}
