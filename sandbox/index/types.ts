import type { ContractName } from '../contracts/artifacts'

/**
 * What the indexer keeps per transaction: everything spec 2.3 needs that does not change
 * after mining (confirmations and token holders are computed at answer time). Addresses are
 * lowercase here and checksummed in responses; amounts are decimal strings (JSON-safe).
 */
export interface TxRecord {
  hash: string
  block: number
  blockHash: string
  /** Unix seconds. */
  timestamp: number
  /** Milliseconds since the parent block: the upper end of confirmation_duration. */
  intervalMs: number
  position: number
  from: string
  to: string | null
  created: string | null
  value: string
  nonce: number
  type: number
  gasLimit: string
  gasPrice: string
  maxFeePerGas: string | null
  maxPriorityFeePerGas: string | null
  gasUsed: string
  baseFee: string
  input: string
  ok: boolean
  /** The top-level error of the trace ("execution reverted"), null when it succeeded. */
  error: string | null
  revertReason: string | null
  internalError: boolean
  method: string | null
  decoded: DecodedInput | null
  transfers: TransferRecord[]
}

export interface DecodedInput {
  method_call: string
  method_id: string
  parameters: { name: string; type: string; value: unknown }[]
}

export type TokenType = 'ERC-20' | 'ERC-721' | 'ERC-1155'

export interface TransferRecord {
  token: string
  from: string
  to: string
  logIndex: number
  /** NFTs only. */
  tokenId: string | null
  /** Amount moved ("1" for an ERC-721). */
  amount: string
}

export interface TokenRecord {
  address: string
  type: TokenType
  name: string | null
  symbol: string | null
  decimals: string | null
  /** From totalSupply() when the token has it, else counted from transfers. */
  totalSupply: string | null
}

export interface ContractRecord {
  /** The Solidity contract name when the creation code matches a known artifact. */
  name: string | null
  artifact: ContractName | null
}
