import { isAddressText } from '@shared/domain/address'
import { parseHexQuantity } from '@shared/domain/amount'
import { isRecord } from '@shared/guards'
import { AppError } from '../util/app-error'

/**
 * A transaction's call tree in one model, whichever dialect the node spoke: geth's
 * `debug_traceTransaction` with the `callTracer` (a nested frame) or `trace_transaction`
 * (Erigon, Nethermind, OpenEthereum: a flat list addressed by `traceAddress`). Frames are in
 * call order (pre-order); read iteratively, so a hostile answer nested 10,000 deep is refused
 * with a clear error instead of overflowing the stack (docs/decisions/entity-reads.md).
 */
export type FrameKind = 'call' | 'delegatecall' | 'staticcall' | 'callcode' | 'create' | 'create2' | 'selfdestruct'

export interface TraceFrame {
  /** Index of the enclosing frame in the list; null for the transaction's own call. */
  parent: number | null
  depth: number
  kind: FrameKind
  /** Lowercase. */
  from: string
  /** Lowercase; null for a creation that failed before it had an address. */
  to: string | null
  value: bigint
  /** Why this frame failed (its own error); null when it succeeded. */
  error: string | null
  /** This frame or one enclosing it failed: nothing it moved stayed moved. */
  reverted: boolean
}

/** Deepest nesting read: the EVM stops at 1,024 calls, plus the transaction's own frame. */
export const MAX_TRACE_DEPTH = 1025
/** Most frames read from one transaction's trace. */
const MAX_TRACE_FRAMES = 50_000

const KINDS: Record<string, FrameKind> = {
  CALL: 'call',
  DELEGATECALL: 'delegatecall',
  STATICCALL: 'staticcall',
  CALLCODE: 'callcode',
  CREATE: 'create',
  CREATE2: 'create2',
  SELFDESTRUCT: 'selfdestruct',
  SUICIDE: 'selfdestruct',
}

const bad = (what: string): AppError => new AppError('protocol', `The trace answered is not readable: ${what}.`)

function address(v: unknown, where: string): string {
  if (typeof v !== 'string' || !isAddressText(v)) throw bad(`${where} is not an address`)
  return v.toLowerCase()
}

function optionalAddress(v: unknown, where: string): string | null {
  return v === undefined || v === null ? null : address(v, where)
}

function quantity(v: unknown, where: string): bigint {
  if (v === undefined || v === null) return 0n
  const n = parseHexQuantity(v)
  if (n === null) throw bad(`${where} is not a hex quantity`)
  return n
}

function kindOf(v: unknown, where: string): FrameKind {
  const kind = typeof v === 'string' ? KINDS[v.toUpperCase()] : undefined
  if (!kind) throw bad(`${where} has an unknown call type (${typeof v === 'string' ? v.slice(0, 20) : typeof v})`)
  return kind
}

function errorText(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v.slice(0, 300) : null
}

function checkBounds(depth: number, count: number): void {
  if (depth > MAX_TRACE_DEPTH)
    throw bad(`it nests calls deeper than ${MAX_TRACE_DEPTH} levels (the EVM stops at 1,024)`)
  if (count > MAX_TRACE_FRAMES) throw bad(`it holds more than ${MAX_TRACE_FRAMES.toLocaleString('en-US')} calls`)
}

/** The `callTracer`'s nested frame as the flat model. */
export function fromCallTracer(root: unknown): TraceFrame[] {
  if (!isRecord(root)) throw bad('the callTracer answer is not a call frame')
  // anvil answers a hash it does not know with the struct logger's empty step log, not an error.
  if (root.type === undefined && Array.isArray(root.structLogs))
    throw bad('it is a step log, not a call tree: the node does not seem to know this transaction')
  const frames: TraceFrame[] = []
  // Children are pushed in reverse so they pop in call order (pre-order, like trace_transaction).
  const stack: { raw: unknown; parent: number | null; depth: number }[] = [{ raw: root, parent: null, depth: 0 }]
  while (stack.length > 0) {
    const { raw, parent, depth } = stack.pop()!
    checkBounds(depth, frames.length + 1)
    const where = depth === 0 ? 'the top call' : `a call at depth ${depth}`
    if (!isRecord(raw)) throw bad(`${where} is not a call frame`)
    const kind = kindOf(raw.type, where)
    const error = errorText(raw.error)
    const up = parent === null ? null : frames[parent]!
    frames.push({
      parent,
      depth,
      kind,
      from: address(raw.from, `the sender of ${where}`),
      to: optionalAddress(raw.to, `the recipient of ${where}`),
      value: quantity(raw.value, `the value of ${where}`),
      error,
      reverted: error !== null || (up?.reverted ?? false),
    })
    const calls = raw.calls
    if (calls === undefined || calls === null) continue
    if (!Array.isArray(calls)) throw bad(`the inner calls of ${where} are not a list`)
    checkBounds(depth, frames.length + stack.length + calls.length)
    const index = frames.length - 1
    for (let i = calls.length - 1; i >= 0; i--) stack.push({ raw: calls[i], parent: index, depth: depth + 1 })
  }
  return frames
}

/** `trace_transaction`'s flat list (Erigon, Nethermind) as the same model. */
export function fromParityTraces(list: unknown): TraceFrame[] {
  if (!Array.isArray(list)) throw bad('trace_transaction did not answer a list')
  if (list.length === 0) throw bad('trace_transaction answered an empty list')
  checkBounds(0, list.length)
  const entries = list.map((raw, i) => {
    if (!isRecord(raw)) throw bad(`trace ${i} is not an object`)
    const path = raw.traceAddress
    if (!Array.isArray(path) || !path.every((n) => Number.isSafeInteger(n) && (n as number) >= 0))
      throw bad(`the traceAddress of trace ${i} is not a list of positions`)
    checkBounds(path.length, 0)
    return { raw, path: path as number[] }
  })
  // Call order is the order of trace addresses; nodes sort them so already, some others do not.
  entries.sort((a, b) => comparePaths(a.path, b.path))
  const byPath = new Map<string, number>()
  const frames: TraceFrame[] = []
  for (const { raw, path } of entries) {
    const where = path.length === 0 ? 'the top call' : `the call at [${path.join(',')}]`
    const key = path.join(',')
    if (byPath.has(key)) throw bad(`${where} appears twice`)
    const parent = path.length === 0 ? null : byPath.get(path.slice(0, -1).join(','))
    if (parent === undefined) throw bad(`${where} has no enclosing call`)
    if (parent === null && frames.length > 0) throw bad('it holds more than one top call')
    if (parent !== null && frames.length === 0) throw bad('it has no top call')
    const frame = parityFrame(raw, where)
    const up = parent === null ? null : frames[parent]!
    byPath.set(key, frames.length)
    frames.push({ ...frame, parent, depth: path.length, reverted: frame.error !== null || (up?.reverted ?? false) })
  }
  return frames
}

function parityFrame(raw: Record<string, unknown>, where: string): Omit<TraceFrame, 'parent' | 'depth' | 'reverted'> {
  const action = raw.action
  if (!isRecord(action)) throw bad(`${where} has no action`)
  const result = isRecord(raw.result) ? raw.result : null
  const error = errorText(raw.error)
  const type = typeof raw.type === 'string' ? raw.type : ''
  if (type === 'suicide' || type === 'selfdestruct')
    return {
      kind: 'selfdestruct',
      from: address(action.address, `the contract of ${where}`),
      to: address(action.refundAddress, `the beneficiary of ${where}`),
      value: quantity(action.balance, `the balance of ${where}`),
      error,
    }
  if (type === 'create')
    return {
      kind: action.creationMethod === 'create2' ? 'create2' : 'create',
      from: address(action.from, `the sender of ${where}`),
      to: optionalAddress(result?.address, `the created address of ${where}`),
      value: quantity(action.value, `the value of ${where}`),
      error,
    }
  if (type === 'call')
    return {
      kind: kindOf(action.callType ?? 'call', where),
      from: address(action.from, `the sender of ${where}`),
      to: address(action.to, `the recipient of ${where}`),
      value: quantity(action.value, `the value of ${where}`),
      error,
    }
  throw bad(`${where} has an unknown type (${type.slice(0, 20) || 'none'})`)
}

function comparePaths(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** A movement of the chain's coin inside a transaction (not its own top-level value). */
export interface ValueTransfer {
  from: string
  to: string
  value: bigint
  kind: 'call' | 'create' | 'create2' | 'selfdestruct'
  depth: number
  /** The frame's index in the trace (its place in call order). */
  frame: number
}

/**
 * The coin that moved between addresses inside the transaction and stayed moved: frames below
 * the top call that carried value, where neither they nor an enclosing call failed. A
 * delegatecall or staticcall moves nothing (its value is the caller's context); a callcode
 * runs another's code on the caller's own balance, so it moves nothing between addresses.
 */
export function valueTransfers(frames: readonly TraceFrame[]): ValueTransfer[] {
  const out: ValueTransfer[] = []
  frames.forEach((f, i) => {
    if (f.depth === 0 || f.reverted || f.value === 0n || f.to === null) return
    if (f.kind === 'delegatecall' || f.kind === 'staticcall' || f.kind === 'callcode') return
    if (f.from === f.to) return
    out.push({ from: f.from, to: f.to, value: f.value, kind: f.kind, depth: f.depth, frame: i })
  })
  return out
}
