import { AppError } from '../util/app-error'
import { isRecord } from '@shared/guards'
import type { HttpAnswer } from './http-attempt'
import { quotaExhausted, safeExcerpt } from './response-errors'
import type { ServiceContext } from './service-types'

/**
 * Refusals a service says inside an HTTP 200 body instead of with its status: several gateways
 * answer a JSON-RPC call with `code 429`, `-32005 "limit exceeded"`, `-32012 "credits limited
 * to 6000/sec"` or `-33300`; Infura's daily cap is `-33000`; Blockscout-style data APIs answer
 * `{"message":"429 Too Many Requests","result":null,"status":"0"}`. Read as what they mean, the
 * limiter pauses or stops as for the status, and the request is retried after the pause.
 */

/** How long to wait after a refusal that names no time: the spec's 1 s bucket refill. */
const DEFAULT_PAUSE_MS = 1000

const RATE_CODES = new Set([429, -32005, -32012, -33300, -32029])
const QUOTA_CODES = new Set([-33000])
const RATE_WORDS =
  /\brate\b|rate.?limit|too many requests|request limit|limit exceeded|credits|throughput|per second|\/sec|slow down/i
const QUOTA_WORDS = /\bdaily\b|per day|\bquota\b|today|payment required/i
/**
 * -32005 is also Infura's "query returned more than N results" for eth_getLogs, and Besu's
 * "Number of requests exceeds max batch size": size refusals, handled where they are met.
 */
const SIZE_WORDS = /more than [\d,.]+\s*k? results|block range|response size|\bbatch/i

export type RpcRefusal = 'rate' | 'quota'

/** What a JSON-RPC error object says about the service's limits: rate, quota, or nothing. */
export function rpcRefusal(error: { code: number; message: string }): RpcRefusal | null {
  // A revert reason or a transaction's own limits (gas, fees, nonce) are the call's answer, not the service's.
  if (SIZE_WORDS.test(error.message) || /revert|\bgas\b|\bfee|nonce/i.test(error.message)) return null
  if (QUOTA_CODES.has(error.code)) return 'quota'
  if (RATE_CODES.has(error.code) || (error.code <= -32000 && error.code >= -32099 && RATE_WORDS.test(error.message)))
    return QUOTA_WORDS.test(error.message) ? 'quota' : 'rate'
  return null
}

/** The retry-after a refusal's data names (seconds, as several gateways give), else 1 s. */
function pauseOf(data: unknown): number {
  if (isRecord(data)) {
    for (const key of ['retry_after_s', 'retryAfter', 'retry_after', 'backoff_seconds']) {
      const v = data[key]
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return Math.round(v * 1000)
    }
  }
  return DEFAULT_PAUSE_MS
}

/** The typed error of a rate or quota refusal said in a JSON-RPC error object. */
export function rpcRefusalError(
  error: { code: number; message: string; data?: unknown },
  what: string,
  ctx: ServiceContext,
): AppError | null {
  const { redact } = ctx
  const nowMs = ctx.clock.now()
  const kind = rpcRefusal(error)
  if (kind === null) return null
  const said = safeExcerpt(error.message, redact, 120)
  if (kind === 'quota') return quotaExhausted(null, nowMs, ` (JSON-RPC error ${error.code}: ${said})`)
  const wait = pauseOf(error.data)
  return new AppError(
    'rate-limited',
    `The service asked Chainscope to slow down on ${what} (JSON-RPC error ${error.code}: ${said}); it retries after ${Math.max(1, Math.round(wait / 1000))} s.`,
    { retryAfterMs: wait },
  )
}

/**
 * A 2xx answer that is really a refusal: one JSON-RPC error object with a rate or quota code
 * (a batch's own items are judged one by one by the caller), or a data API's
 * `{"status":"0","message":"429 Too Many Requests"}`. Null for anything else.
 */
export function refusalInBody(answer: HttpAnswer, what: string, ctx: ServiceContext): AppError | null {
  const { redact } = ctx
  if (answer.status < 200 || answer.status >= 300) return null
  // Cheap first look: a refusal is a small object; lists and large bodies are answers.
  if (answer.text.length > 4096 || !/^\s*\{/.test(answer.text)) return null
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return null
  }
  if (!isRecord(body)) return null
  if (isRecord(body.error) && typeof body.error.code === 'number' && typeof body.error.message === 'string')
    return rpcRefusalError({ code: body.error.code, message: body.error.message, data: body.error.data }, what, ctx)
  // Blockscout / Etherscan style: status "0" with the refusal in `message` (or `result`).
  if (body.status === '0' && typeof body.message === 'string') {
    const said = `${body.message} ${typeof body.result === 'string' ? body.result : ''}`
    if (QUOTA_WORDS.test(said) && !/per second|\/sec/i.test(said))
      return quotaExhausted(null, ctx.clock.now(), ` (${safeExcerpt(body.message, redact, 80)})`)
    if (/\b429\b|too many|rate limit/i.test(said))
      return new AppError(
        'rate-limited',
        `The service asked Chainscope to slow down on ${what} (${safeExcerpt(said, redact, 80)}); it retries after 1 s.`,
        { retryAfterMs: DEFAULT_PAUSE_MS },
      )
  }
  return null
}
