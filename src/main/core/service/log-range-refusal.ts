import { AppError } from '../util/app-error'
import { isRecord } from '@shared/guards'
import type { RpcBatchItem } from '@shared/bridge/contract'

/**
 * Recognises an `eth_getLogs` refused for its size, in each provider's own words. Two kinds:
 *
 * - 'range': the block range is longer than the provider allows (a cap it may name: "max block
 *   range 1000", "limited to a 10,000 blocks range", "block range is too wide");
 * - 'results': the range holds more logs, or a larger answer, than it returns at once ("query
 *   returned more than 10000 results", "Log response size exceeded", a body over our own size
 *   limit, a query that timed out). It depends on where the logs are, so it is not remembered.
 *
 * Either may come with the range the provider suggests instead ("this block range should work:
 * [0x.., 0x..]", Infura's "Try with this block range [0x.., 0x..]" and its `data {from, to}`).
 * Nothing else is read as a range refusal: a `-32005 "limit exceeded"` is a rate limit.
 */
export interface LogRangeRefusal {
  kind: 'range' | 'results'
  /** The most blocks one request may span, when the provider names it. */
  cap?: number
  /** The block range the provider suggests instead (inclusive). */
  suggested?: { from: number; to: number }
}

/** An HTTP 413 to a single call: the RPC endpoint refused the request as too large. */
export class TooLargeError extends AppError {
  override name = 'TooLargeError'
  readonly status = 413
}

const RANGE_WORDS = [
  /max(?:imum)? block range/i,
  /block range (?:is )?too (?:wide|large|big|long)/i,
  /range (?:is )?too (?:wide|large|big|long)/i,
  /limited to (?:a )?[\d,.]+\s*k? ?blocks?(?: range)?/i,
  /exceeds? (?:the )?(?:max(?:imum)? )?(?:block )?range/i,
  /too many blocks/i,
  /block range (?:limit|exceeded)/i,
  /(?:range|span) of (?:more than|over) [\d,.]+\s*k? blocks/i,
  /up to (?:a )?[\d,.]+\s*k? block range/i,
  // Other providers' phrasings: a range (of blocks) that exceeds, is too much, or hits a limit.
  /\brange\b.{0,40}(?:exceed|too|limit|max)/i,
  /(?:exceed|too|limit|max).{0,40}\b(?:block )?range\b/i,
  /[\d,.]+\s*k? blocks?\b.{0,20}(?:limit|max|allowed)/i,
]
const RESULT_WORDS = [
  /(?:more than|over|exceeds?) [\d,.]+\s*k? (?:results|logs)/i,
  /log response size exceeded/i,
  /response (?:size )?(?:is )?too (?:large|big)/i,
  /query timeout|timed out|took too long|execution timeout/i,
  /is larger than \d+ bytes/i,
]

/** "10,000" → 10000, "2K" → 2000, "1.5k" → 1500. */
function count(text: string): number | undefined {
  const m = /^([\d,.]+)\s*(k)?$/i.exec(text.trim())
  if (!m) return undefined
  const n = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1)
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined
}

/** The cap a message names, e.g. "max block range 1000", "limited to a 10,000 blocks range", "up to a 2K block range". */
function capOf(message: string): number | undefined {
  const patterns = [
    /max(?:imum)? (?:block )?range(?: (?:of|is|allowed(?: is)?))?:? ([\d,.]+\s*k?)\b/i,
    /limited to (?:a )?([\d,.]+\s*k?) ?blocks?/i,
    /up to (?:a )?([\d,.]+\s*k?) ?block range/i,
    /(?:range|span) of (?:more than|over) ([\d,.]+\s*k?) blocks/i,
    /([\d,.]+\s*k?) blocks? (?:range )?(?:limit|max(?:imum)?)/i,
    /max(?:imum)?(?: allowed)?(?: is| of|:)?\s*([\d,.]+\s*k?)\s*blocks?/i,
    /range limit\s*(?:of|is|:)?\s*\(?([\d,.]+\s*k?)\)?/i,
  ]
  for (const p of patterns) {
    const m = p.exec(message)
    const n = m ? count(m[1]!) : undefined
    if (n !== undefined) return n
  }
  // Words unknown, one number given ("… range limit for eth_getLogs: 500"): taken as the cap. A
  // wrong guess costs little: one too large is refused again and halved, one too small only
  // splits more. Error codes ("-32000"), hex blocks and counts of results are not caps.
  const numbers = [...message.matchAll(/(?<![-\w.])(\d[\d,]*)(?![\w.]|\s*(?:results|logs|bytes|[kmg]b)\b)/gi)]
    .map((m) => count(m[1]!))
    .filter((n): n is number => n !== undefined && n >= 2)
  return numbers.length === 1 ? numbers[0] : undefined
}

function block(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || !/^0x[0-9a-f]{1,14}$/i.test(value)) return undefined
  return Number.parseInt(value, 16)
}

/** The range a provider suggests, from its `data {from, to}` or the "[0x.., 0x..]" in its words. */
function suggestedOf(message: string, data: unknown): { from: number; to: number } | undefined {
  if (isRecord(data)) {
    const from = block(data.from)
    const to = block(data.to)
    if (from !== undefined && to !== undefined && to >= from) return { from, to }
  }
  const m = /\[\s*(0x[0-9a-f]{1,14})\s*,\s*(0x[0-9a-f]{1,14})\s*\]/i.exec(message)
  if (!m) return undefined
  const from = block(m[1])
  const to = block(m[2])
  return from !== undefined && to !== undefined && to >= from ? { from, to } : undefined
}

/** What an `eth_getLogs` error says about its range; null when it is not a size refusal. */
export function logRangeRefusal(error: unknown): LogRangeRefusal | null {
  if (!(error instanceof AppError)) return null
  const data = error.details.data
  const text = `${error.message} ${typeof data === 'string' ? data : ''}`
  // A refusal by size is an RPC error object, an HTTP 413, or an answer too large for us to read.
  const fromRpc = error.kind === 'rpc'
  const tooLarge = error instanceof TooLargeError
  const oversized = error.kind === 'protocol' && /is larger than \d+ bytes/.test(error.message)
  if (!fromRpc && !tooLarge && !oversized) return null
  const suggested = suggestedOf(text, data)
  const cap = capOf(text)
  const extra = { ...(cap !== undefined ? { cap } : {}), ...(suggested ? { suggested } : {}) }
  if (RESULT_WORDS.some((p) => p.test(text))) return { kind: 'results', ...extra }
  if (RANGE_WORDS.some((p) => p.test(text))) return { kind: 'range', ...extra }
  // Words unknown, but a range was suggested or the whole request was too large: split anyway.
  if (suggested || tooLarge) return { kind: 'range', ...extra }
  return null
}

/** The same for a call answered inside a batch (an `eth_getLogs` sent with other calls). */
export function logRangeRefusalOfItem(item: RpcBatchItem): LogRangeRefusal | null {
  if (item.ok) return null
  return logRangeRefusal(
    new AppError('rpc', item.message, { code: item.code, ...(item.data !== undefined ? { data: item.data } : {}) }),
  )
}
