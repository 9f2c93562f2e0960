import { isRecord } from '../guards'
/**
 * Errors cross the bridge as plain data, recognised by `kind`, never by `instanceof`
 * (docs/architecture.md, "One bridge, two transports").
 */
export const ERROR_KINDS = [
  'invalid-input',
  'auth',
  'rate-limited',
  'quota-exhausted',
  'offline',
  /** The user switched "Work offline" on: nothing is sent (switch it off to fetch again). */
  'offline-by-choice',
  'timeout',
  'server',
  'protocol',
  'rpc',
  'keychain',
  'not-found',
  'conflict',
  'cancelled',
  'internal',
] as const

export type ErrorKind = (typeof ERROR_KINDS)[number]

export interface BridgeError {
  kind: ErrorKind
  /** Plain-language message, safe to show: never contains the API key. */
  message: string
  /** When the same call may succeed again (rate limit, quota reset). */
  retryAfterMs?: number
  /** Which input field was wrong, for `invalid-input`. */
  field?: string
  /** JSON-RPC error code, for `rpc`. */
  code?: number
  /** JSON-RPC error data or a short safe excerpt of a malformed body. */
  data?: unknown
  /** Per-row problems, for imports. */
  rows?: { row: number; message: string }[]
}

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError }

export function isBridgeError(value: unknown): value is BridgeError {
  return isRecord(value) && ERROR_KINDS.some((k) => k === value.kind) && typeof value.message === 'string'
}

export function ok<T>(value: T): BridgeResult<T> {
  return { ok: true, value }
}

export function fail<T = never>(error: BridgeError): BridgeResult<T> {
  return { ok: false, error }
}
