/**
 * Multicall3's `aggregate3((address,bool,bytes)[])` call data and its `(bool,bytes)[]` answer,
 * written and read word by word. viem's general ABI coder took ~20 ms each way for the ~500
 * reads of one address's approvals in a process that had not run it yet (bench:analysis);
 * this is one pass over the text. Only this shape; its test checks it against viem's coder.
 */
const AGGREGATE3 = '82ad56cb'

/** What one read of an aggregate returned: its raw return data, or that it failed (reverted, no code). */
export type ReadResult = { ok: true; data: `0x${string}` } | { ok: false }

const word = (n: number): string => n.toString(16).padStart(64, '0')

export interface Aggregate3Call {
  target: string
  allowFailure: boolean
  callData: string
}

export function encodeAggregate3(calls: readonly Aggregate3Call[]): `0x${string}` {
  const heads: string[] = []
  const tails: string[] = []
  let offset = calls.length * 32
  for (const c of calls) {
    heads.push(word(offset))
    const data = c.callData.slice(2).toLowerCase()
    const tuple =
      c.target.slice(2).toLowerCase().padStart(64, '0') +
      word(c.allowFailure ? 1 : 0) +
      word(96) +
      word(data.length / 2) +
      data.padEnd(Math.ceil(data.length / 64) * 64, '0')
    tails.push(tuple)
    offset += tuple.length / 2
  }
  return `0x${AGGREGATE3}${word(32)}${word(calls.length)}${heads.join('')}${tails.join('')}`
}

/**
 * The results of an aggregate3 answer (hex already checked to be whole bytes), or null when it
 * is not one: an offset or length beyond the answer, or a success flag other than 0 or 1.
 */
export function decodeAggregate3(hex: string): ReadResult[] | null {
  const body = hex.slice(2)
  const bytes = body.length / 2
  /** The word at byte `at` as a number; null past the end or too large to be an offset here. */
  const num = (at: number): number | null => {
    if (!Number.isSafeInteger(at) || at < 0 || at + 32 > bytes) return null
    const w = body.slice(at * 2, at * 2 + 64)
    // An offset or length within an answer of at most 2^48 bytes: the rest of the word is zero.
    if (!/^0{52}/.test(w)) return null
    return Number.parseInt(w.slice(52), 16)
  }
  const base = num(0)
  const n = base === null ? null : num(base)
  if (base === null || n === null || n * 32 > bytes) return null
  const start = base + 32
  const out: ReadResult[] = []
  for (let k = 0; k < n; k++) {
    const off = num(start + 32 * k)
    if (off === null) return null
    const at = start + off
    const success = num(at)
    const dataAt = num(at + 32)
    if ((success !== 0 && success !== 1) || dataAt === null) return null
    const length = num(at + dataAt)
    const from = at + dataAt + 32
    if (length === null || from + length > bytes) return null
    out.push(success === 1 ? { ok: true, data: `0x${body.slice(from * 2, (from + length) * 2)}` } : { ok: false })
  }
  return out
}
