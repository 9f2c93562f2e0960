import { formatUnits, parseHexQuantity } from '@shared/domain/amount'
import { isRecord } from '@shared/guards'

/** Fields of blocks, transactions, receipts and logs that hold hex quantities (not data). */
const QUANTITY_KEYS = new Set([
  'number',
  'blockNumber',
  'gas',
  'gasUsed',
  'gasLimit',
  'gasPrice',
  'baseFeePerGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'maxFeePerBlobGas',
  'blobGasUsed',
  'excessBlobGas',
  'effectiveGasPrice',
  'cumulativeGasUsed',
  'timestamp',
  'size',
  'difficulty',
  'totalDifficulty',
  'transactionIndex',
  'logIndex',
  'value',
  'nonce',
  'chainId',
  'status',
  'type',
  'v',
  'yParity',
  'oldestBlock',
  'currentBlock',
  'highestBlock',
  'startingBlock',
])
/** Quantities measured in wei, also shown in gwei or whole coins. */
const WEI_KEYS = new Set([
  'gasPrice',
  'baseFeePerGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'effectiveGasPrice',
  'value',
])

export interface Decoded {
  /** Decimal value, grouped. */
  decimal: string
  /** An extra reading where one helps (gwei, coins, a date). */
  note: string | null
}

function weiNote(v: bigint): string | null {
  if (v === 0n) return null
  if (v < 10n ** 15n) return `${formatUnits(v, 9)} gwei`
  return `${formatUnits(v, 18)} coin`
}

/** Decodes a hex quantity at `key` (or the whole result, for quantity methods). */
function decodeQuantity(value: unknown, key: string | null, method: string): Decoded | null {
  if (key !== null && !QUANTITY_KEYS.has(key)) return null
  // Block nonces are 8 bytes of data, not a count: a value with leading zeros is data here.
  if (typeof value === 'string' && /^0x0./.test(value)) return null
  const v = parseHexQuantity(value)
  if (v === null) return null
  let note: string | null = null
  if (key === 'timestamp' && v < 10n ** 11n) note = new Date(Number(v) * 1000).toISOString()
  else if ((key !== null && WEI_KEYS.has(key)) || (key === null && /gasPrice|getBalance|PriorityFee/.test(method)))
    note = weiNote(v)
  return { decimal: formatUnits(v, 0), note }
}

export interface JsonNode {
  key: string | null
  path: string
  kind: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null'
  text: string
  decoded: Decoded | null
  children: JsonNode[]
}

/** A JSON value as a tree for the pretty printer, with hex quantities decoded. Depth-limited. */
export function toTree(value: unknown, method: string): JsonNode {
  return nodeOf(value, method, { key: null, path: '$', depth: 0, decodeKey: null })
}

/** Where a node stands in the tree: its key, path and depth, and the key its quantities decode by. */
interface TreePlace {
  key: string | null
  path: string
  depth: number
  decodeKey: string | null
}

function nodeOf(value: unknown, method: string, { key, path, depth, decodeKey }: TreePlace): JsonNode {
  if (depth > 12) return { key, path, kind: 'string', text: '…', decoded: null, children: [] }
  if (Array.isArray(value)) {
    return {
      key,
      path,
      kind: 'array',
      text: `[${value.length}]`,
      decoded: null,
      // Items of an array take the array's key for decoding (feeHistory's baseFeePerGas list).
      children: value
        .slice(0, 500)
        .map((v, i) => nodeOf(v, method, { key: `${i}`, path: `${path}[${i}]`, depth: depth + 1, decodeKey })),
    }
  }
  if (isRecord(value)) {
    const entries = Object.entries(value)
    return {
      key,
      path,
      kind: 'object',
      text: `{${entries.length}}`,
      decoded: null,
      children: entries.map(([k, v]) =>
        nodeOf(v, method, { key: k, path: `${path}.${k}`, depth: depth + 1, decodeKey: k }),
      ),
    }
  }
  if (typeof value === 'string') {
    const decoded = decodeQuantity(value, depth === 0 ? null : decodeKey, method)
    // The top-level result of a non-quantity method (eth_getCode) is data, not a number.
    return {
      key,
      path,
      kind: 'string',
      text: value,
      decoded: depth === 0 && !isQuantityMethod(method) ? null : decoded,
      children: [],
    }
  }
  if (typeof value === 'number') return { key, path, kind: 'number', text: String(value), decoded: null, children: [] }
  if (typeof value === 'boolean')
    return { key, path, kind: 'boolean', text: String(value), decoded: null, children: [] }
  return { key, path, kind: 'null', text: 'null', decoded: null, children: [] }
}

const QUANTITY_METHODS =
  /^(eth_blockNumber|eth_gasPrice|eth_maxPriorityFeePerGas|eth_chainId|eth_getBalance|eth_getTransactionCount|eth_estimateGas|eth_getBlockTransactionCountBy\w+|eth_getUncleCountBy\w+|eth_blobBaseFee|net_peerCount)$/

function isQuantityMethod(method: string): boolean {
  return QUANTITY_METHODS.test(method)
}
