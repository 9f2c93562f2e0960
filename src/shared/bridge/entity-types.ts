import type { CostEstimate } from '../domain/cost'

/**
 * What an address, a transaction and a block are, read from the RPC endpoint (issue 40): the
 * answers of the `entities.*` bridge calls. Amounts are decimal strings (JSON has no bigint).
 */

/** When and how an answer was read, and what it cost (0 when it came from the cache). */
export interface EntityAsOf {
  network: string
  /** ISO time the node answered (a cached answer keeps its first time). */
  fetchedAt: string
  source: 'network' | 'cache'
  /** Final: its block is deep enough that it will not change; it is never asked for again. */
  final: boolean
  /** What reading it cost now, in the profile's unit (0 from the cache). */
  cost: { requests: number; units: number }
}

/** An address's EIP-1967 slots, where it is a proxy (each null when its slot is empty). */
export interface ProxySlots {
  implementation: string | null
  admin: string | null
  beacon: string | null
}

export interface AddressKindView extends EntityAsOf {
  address: string
  /** `contract` when it holds code (or the service said so). */
  kind: 'contract' | 'account'
  /** Where the kind came from: a loaded transaction (the service's fields) or eth_getCode. */
  from: 'service' | 'rpc'
  /** Bytes of code; null when only the service's word is known. */
  codeSize: number | null
  name: string | null
  verified: boolean | null
  /** Who created it and in which transaction, where the loaded data knows. */
  creator: string | null
  creationTx: string | null
  /** Set for a contract whose EIP-1967 slots were read (null: not read or not a contract). */
  proxy: ProxySlots | null
}

/** A known event, decoded (ERC-20/721/1155 transfers and approvals). */
export interface DecodedLog {
  event: string
  standard: string
  args: { name: string; value: string }[]
}

export interface LogView {
  /** Position in the block; null when the node did not say. */
  index: number | null
  /** The emitting contract, lowercase. */
  address: string
  topics: string[]
  data: string
  decoded: DecodedLog | null
}

export interface ReceiptView extends EntityAsOf {
  hash: string
  /** null: a pre-Byzantium receipt, which carries a state root instead. */
  status: 'success' | 'failed' | null
  block: number
  blockHash: string
  from: string
  to: string | null
  gasUsed: string
  effectiveGasPrice: string | null
  contractCreated: string | null
  logs: LogView[]
}

export interface InternalTransferRow {
  from: string
  to: string
  value: string
  kind: 'call' | 'create' | 'create2' | 'selfdestruct'
  depth: number
}

export interface InternalTransfersView extends EntityAsOf {
  hash: string
  /** Which method answered; null when the provider refused both (see `refused`). */
  dialect: 'callTracer' | 'trace_transaction' | null
  /** Calls in the tree, reverted ones included. */
  calls: number
  /** Coin moved inside the transaction that stayed moved (reverted calls left out). */
  transfers: InternalTransferRow[]
  /** Why there is no trace: the provider's refusal in words (remembered for the profile). */
  refused: string | null
}

/** One coin transfer inside a traced transaction, to or from the address asked about. */
export interface AddressInternalTransfer extends InternalTransferRow {
  /** The transaction it happened inside. */
  hash: string
  /** Always true: moved inside a contract call, not by a transaction of its own (mark it as such). */
  internal: true
}

/**
 * What the traces already kept say an address received and sent inside the given transactions,
 * read with no request (costs nothing): for its flow graph and counterparties, marked internal.
 */
export interface AddressInternalView {
  network: string
  address: string
  /** In the order of the hashes asked, then of the call tree; reverted calls left out. */
  transfers: AddressInternalTransfer[]
  /** Of the hashes asked: those traced (their transfers above, none for some), and those not traced yet. */
  traced: string[]
  untraced: string[]
}

/** Several transactions traced for an address's "Internal transfers" view (resumable: traced ones are cached). */
export interface TracesRun {
  network: string
  traced: InternalTransfersView[]
  /** Transactions that could not be traced (unknown to the node, an unreadable trace); the others went on. */
  failed: { hash: string; message: string }[]
  /** The provider refuses traces, in words: the run stopped. */
  refused: string | null
  /** Why the run stopped early (the quota, the rate, the connection); run again for the rest. */
  stopped: string | null
  cost: { requests: number; units: number }
}

export interface BlockTxSummary {
  hash: string
  from: string
  to: string | null
  value: string
}

export interface BlockView extends EntityAsOf {
  number: number
  hash: string
  parentHash: string
  timestamp: string
  /** The fee recipient (miner on proof-of-work chains). */
  miner: string
  baseFeePerGas: string | null
  gasUsed: string
  gasLimit: string
  transactionCount: number
  transactions: string[]
  /** The full transaction objects, when asked for (a separate, costed read). */
  full: BlockTxSummary[] | null
}

/** What a read costs now (0: cached, or the service already said) and the most it may cost. */
export type EntityCost = CostEstimate & { cached: boolean; upTo: number }

/** Which entity read a cost is asked for (`call`: one view function of a contract). */
export type EntityRead = 'address' | 'proxy' | 'receipt' | 'trace' | 'block' | 'block-full' | 'call'

/** A view function of a contract's ABI, as the Read contract panel lists it. */
export interface ContractFunction {
  /** `function balanceOf(address owner) view returns (uint256)`: what `entities.readContract` takes. */
  signature: string
  name: string
  inputs: { name: string; type: string }[]
}

/** A view function's answer, read now with `eth_call` (never cached: state changes). */
export interface ReadContractView {
  network: string
  address: string
  function: string
  outputs: { name: string; type: string; value: string }[]
  fetchedAt: string
  cost: { requests: number; units: number }
}
