import { checkAddress } from '@shared/domain/address'
import { errorMessage, isRecord } from '@shared/guards'
import { writeMethodRefusal } from '@shared/domain/rpc-read-only'

/** Kinds of parameter the console's form knows how to check and convert. */
export type ParamKind =
  'address' | 'block' | 'hash' | 'data' | 'quantity' | 'bool' | 'json-object' | 'json-array' | 'slot'

export interface ParamSpec {
  name: string
  kind: ParamKind
  optional?: boolean
  /** Shown as the field's placeholder. */
  example: string
  defaultValue?: string
}

export interface RpcMethodSpec {
  method: string
  summary: string
  params: ParamSpec[]
  /** The result is a hex quantity worth decoding as a whole. */
  quantityResult?: boolean
}

const block = (defaultValue = 'latest'): ParamSpec => ({
  name: 'block',
  kind: 'block',
  example: 'latest, 12345 or 0x3039',
  defaultValue,
})

/** Standard read methods (spec 1: the eth_ family). Writes are left out: this is an explorer. */
export const RPC_METHODS: RpcMethodSpec[] = [
  { method: 'eth_blockNumber', summary: 'Latest block number', params: [], quantityResult: true },
  { method: 'eth_gasPrice', summary: 'Current gas price (wei)', params: [], quantityResult: true },
  { method: 'eth_maxPriorityFeePerGas', summary: 'Suggested priority fee (wei)', params: [], quantityResult: true },
  { method: 'eth_chainId', summary: 'Chain id', params: [], quantityResult: true },
  { method: 'eth_syncing', summary: 'Sync status', params: [] },
  {
    method: 'eth_getBalance',
    summary: 'Native balance of an address (wei)',
    params: [{ name: 'address', kind: 'address', example: '0x…' }, block()],
    quantityResult: true,
  },
  {
    method: 'eth_getTransactionCount',
    summary: 'Nonce of an address',
    params: [{ name: 'address', kind: 'address', example: '0x…' }, block()],
    quantityResult: true,
  },
  {
    method: 'eth_getCode',
    summary: 'Contract code at an address',
    params: [{ name: 'address', kind: 'address', example: '0x…' }, block()],
  },
  {
    method: 'eth_getStorageAt',
    summary: 'A storage slot of a contract',
    params: [
      { name: 'address', kind: 'address', example: '0x…' },
      { name: 'slot', kind: 'slot', example: '0 or 0x0', defaultValue: '0x0' },
      block(),
    ],
  },
  {
    method: 'eth_call',
    summary: 'Call a contract without a transaction',
    params: [{ name: 'call', kind: 'json-object', example: '{"to":"0x…","data":"0x…"}' }, block()],
  },
  {
    method: 'eth_estimateGas',
    summary: 'Estimate gas for a call',
    params: [{ name: 'call', kind: 'json-object', example: '{"to":"0x…","data":"0x…"}' }],
    quantityResult: true,
  },
  {
    method: 'eth_getBlockByNumber',
    summary: 'A block by number',
    params: [block(), { name: 'full transactions', kind: 'bool', example: 'false', defaultValue: 'false' }],
  },
  {
    method: 'eth_getBlockByHash',
    summary: 'A block by hash',
    params: [
      { name: 'hash', kind: 'hash', example: '0x… (32 bytes)' },
      { name: 'full transactions', kind: 'bool', example: 'false', defaultValue: 'false' },
    ],
  },
  {
    method: 'eth_getBlockTransactionCountByNumber',
    summary: 'Transactions in a block',
    params: [block()],
    quantityResult: true,
  },
  { method: 'eth_getBlockReceipts', summary: 'Every receipt of a block', params: [block()] },
  {
    method: 'eth_getTransactionByHash',
    summary: 'A transaction by hash',
    params: [{ name: 'hash', kind: 'hash', example: '0x… (32 bytes)' }],
  },
  {
    method: 'eth_getTransactionReceipt',
    summary: 'A transaction receipt',
    params: [{ name: 'hash', kind: 'hash', example: '0x… (32 bytes)' }],
  },
  {
    method: 'eth_getLogs',
    summary: 'Event logs matching a filter',
    params: [
      { name: 'filter', kind: 'json-object', example: '{"fromBlock":"0x0","toBlock":"latest","address":"0x…"}' },
    ],
  },
  {
    method: 'eth_feeHistory',
    summary: 'Base fees and rewards of recent blocks',
    params: [
      { name: 'block count', kind: 'quantity', example: '5', defaultValue: '5' },
      block(),
      { name: 'reward percentiles', kind: 'json-array', example: '[25, 50, 75]', defaultValue: '[]' },
    ],
  },
  { method: 'net_version', summary: 'Network id', params: [] },
  { method: 'web3_clientVersion', summary: 'Node software version', params: [] },
]

export function findMethod(name: string): RpcMethodSpec | null {
  return RPC_METHODS.find((m) => m.method === name) ?? null
}

const BLOCK_TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized'])

export type ParamCheck = { ok: true; value: unknown } | { ok: false; message: string }

/** Checks one form field and converts it to the JSON-RPC value (decimals become hex quantities). */
export function checkParam(spec: ParamSpec, raw: string): ParamCheck {
  const text = raw.trim()
  switch (spec.kind) {
    case 'address': {
      const a = checkAddress(text)
      return a.ok ? { ok: true, value: a.address } : { ok: false, message: a.message }
    }
    case 'block':
      if (BLOCK_TAGS.has(text)) return { ok: true, value: text }
      if (/^\d+$/.test(text)) return { ok: true, value: `0x${BigInt(text).toString(16)}` }
      if (/^0x[0-9a-fA-F]+$/.test(text)) return { ok: true, value: `0x${BigInt(text).toString(16)}` }
      return {
        ok: false,
        message: 'A block is latest, earliest, pending, safe, finalized, a number or a 0x hex number.',
      }
    case 'quantity':
    case 'slot':
      if (/^\d+$/.test(text)) return { ok: true, value: `0x${BigInt(text).toString(16)}` }
      if (/^0x[0-9a-fA-F]+$/.test(text)) return { ok: true, value: `0x${BigInt(text).toString(16)}` }
      return { ok: false, message: 'Enter a whole number (decimal, or hex with 0x).' }
    case 'hash':
      return /^0x[0-9a-fA-F]{64}$/.test(text)
        ? { ok: true, value: text.toLowerCase() }
        : {
            ok: false,
            message: `A hash is 0x followed by 64 hex characters; this has ${text.replace(/^0x/i, '').length}.`,
          }
    case 'data':
      return /^0x([0-9a-fA-F]{2})*$/.test(text)
        ? { ok: true, value: text }
        : { ok: false, message: 'Data is 0x followed by an even number of hex characters.' }
    case 'bool':
      if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' }
      return { ok: false, message: 'Enter true or false.' }
    case 'json-object':
    case 'json-array': {
      const parsed = parseJson(text)
      if (!parsed.ok) return parsed
      const isArray = Array.isArray(parsed.value)
      const isObject = typeof parsed.value === 'object' && parsed.value !== null && !isArray
      if (spec.kind === 'json-object' && !isObject)
        return { ok: false, message: 'Enter a JSON object, e.g. {"to":"0x…"}.' }
      if (spec.kind === 'json-array' && !isArray) return { ok: false, message: 'Enter a JSON array, e.g. [25, 50].' }
      return parsed
    }
  }
}

/** JSON.parse with a message that says where it went wrong. */
function parseJson(text: string): ParamCheck {
  if (text.trim() === '') return { ok: false, message: 'Enter JSON.' }
  try {
    const value: unknown = JSON.parse(text)
    return { ok: true, value }
  } catch (error) {
    const detail = errorMessage(error)
    return { ok: false, message: `Not valid JSON: ${detail}` }
  }
}

export interface BuiltCall {
  method: string
  params: unknown[]
}

export type BuildResult = { ok: true; call: BuiltCall } | { ok: false; errors: Record<string, string> }

/** Builds the params from the form; every field's problem is reported, not just the first. */
export function buildFromForm(spec: RpcMethodSpec, values: Record<string, string>): BuildResult {
  const errors: Record<string, string> = {}
  const params: unknown[] = []
  for (const p of spec.params) {
    const raw = values[p.name] ?? p.defaultValue ?? ''
    if (raw.trim() === '' && p.optional) continue
    if (raw.trim() === '') {
      errors[p.name] = `Enter ${p.name}.`
      continue
    }
    const checked = checkParam(p, raw)
    if (checked.ok) params.push(checked.value)
    else errors[p.name] = checked.message
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, call: { method: spec.method, params } }
}

const METHOD_RE = /^(eth|net|web3)_[A-Za-z0-9_]+$/

/** Raw mode: `{"method": "eth_…", "params": [...]}`, or a bare params array for the picked method. */
export function buildFromRaw(text: string, pickedMethod: string): BuildResult {
  const parsed = parseJson(text)
  if (!parsed.ok) return { ok: false, errors: { raw: parsed.message } }
  const value = parsed.value
  if (Array.isArray(value)) {
    // The picked method may come from a history entry of a build that sent writes.
    const refusal = writeMethodRefusal(pickedMethod)
    return refusal
      ? { ok: false, errors: { raw: refusal } }
      : { ok: true, call: { method: pickedMethod, params: value } }
  }
  if (!isRecord(value))
    return { ok: false, errors: { raw: 'Enter a JSON object with "method" and "params", or a params array.' } }
  const { method, params } = value
  if (typeof method !== 'string' || !METHOD_RE.test(method)) {
    return { ok: false, errors: { raw: '"method" must be a standard eth_, net_ or web3_ method name.' } }
  }
  const refusal = writeMethodRefusal(method)
  if (refusal) return { ok: false, errors: { raw: refusal } }
  if (params === undefined) return { ok: true, call: { method, params: [] } }
  if (!Array.isArray(params)) return { ok: false, errors: { raw: '"params" must be an array.' } }
  if (params.length > 64) return { ok: false, errors: { raw: 'At most 64 params.' } }
  return { ok: true, call: { method, params } }
}
