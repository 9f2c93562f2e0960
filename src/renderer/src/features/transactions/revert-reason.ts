import { decodeErrorResult, hexToString, isHex, type Hex } from 'viem'
import type { DecodedCall, RevertReason } from '@shared/domain/service-schemas'

export interface DecodedParam {
  name: string
  type: string
  value: string
}

/** A revert reason as shown: a text, or a decoded call with its parameters, and the raw hex. */
export interface RevertReasonView {
  /** The one line shown in the detail and copied. */
  text: string
  /** Set when the reason is a decoded custom error. */
  call: { method: string; params: DecodedParam[] } | null
  /** The raw bytes, when the service sent bytes. */
  raw: string | null
}

export function paramViews(call: DecodedCall): DecodedParam[] {
  return call.parameters.map((p) => ({
    name: p.name ?? '',
    type: p.type,
    value: typeof p.value === 'string' ? p.value : (JSON.stringify(p.value) ?? 'null'),
  }))
}

const ERROR_STRING = '0x08c379a0'
const PANIC = '0x4e487b71'
const errorAbi = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const

/** Printable text only (tabs and newlines allowed): anything else stays hex. */
const PRINTABLE = /^[\t\n\r\u0020-\u007e\u00a0-\uffff]+$/u

/**
 * Raw revert bytes as text: Solidity's `Error(string)` (selector 0x08c379a0) and `Panic(uint256)`
 * are decoded; bytes that are plain UTF-8 text (some services strip the ABI wrapper) are shown
 * as that text; anything else is shown as hex. The service may or may not prefix `0x`.
 */
export function decodeRawRevert(raw: string): string {
  const hex: string = raw.startsWith('0x') ? raw.toLowerCase() : `0x${raw.toLowerCase()}`
  if (!isHex(hex, { strict: true }) || hex.length % 2 !== 0) return raw
  const bytes: Hex = hex
  if (bytes.startsWith(ERROR_STRING) || bytes.startsWith(PANIC)) {
    try {
      const r = decodeErrorResult({ abi: errorAbi, data: bytes })
      const [arg] = r.args
      return r.errorName === 'Error' ? String(arg) : `Panic 0x${BigInt(arg ?? 0).toString(16)}`
    } catch {
      return raw
    }
  }
  if (bytes.length <= 2) return raw
  try {
    const text = hexToString(bytes)
    if (PRINTABLE.test(text) && !text.includes('\uFFFD')) return text
  } catch {
    // not text
  }
  return raw
}

type ObjectReason = Exclude<RevertReason, string | null>

function isDecodedCall(r: ObjectReason): r is DecodedCall {
  return typeof r.method_call === 'string' && Array.isArray(r.parameters)
}

export function revertReasonView(reason: RevertReason | undefined): RevertReasonView | null {
  if (reason === null || reason === undefined || reason === '') return null
  if (typeof reason === 'string') {
    // The spec's string may itself be raw bytes.
    const hexLike = /^(0x)?[0-9a-fA-F]+$/.test(reason) && reason.length >= 10
    return hexLike
      ? { text: decodeRawRevert(reason), call: null, raw: reason }
      : { text: reason, call: null, raw: null }
  }
  if (isDecodedCall(reason))
    return { text: reason.method_call, call: { method: reason.method_call, params: paramViews(reason) }, raw: null }
  return typeof reason.raw === 'string' ? { text: decodeRawRevert(reason.raw), call: null, raw: reason.raw } : null
}
