import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import { isRecord } from '@shared/guards'

export interface HttpAnswer {
  status: number
  contentType: string
  retryAfter: string | null
  text: string
  /** The Location of a redirect, for the caller to follow or not (redirects.ts); fetch follows none. */
  location?: string | null
}

export interface HttpAttemptOptions {
  url: string
  init: RequestInit
  clock: Clock
  fetch: typeof fetch
  /** The whole exchange, headers and body, must finish within this. */
  timeoutMs: number
  /** Bodies larger than this are refused as a protocol error. */
  maxBodyBytes: number
  /** Aborts the attempt (the caller left); the reason is rethrown as is. */
  signal?: AbortSignal
  /** What the request was, for messages ("balances of 0x12…"), never the URL. */
  what: string
}

/**
 * One HTTP exchange with a deadline. Network failures become `offline`, the deadline
 * `timeout`; statuses are returned as data for the caller to classify. No message names the
 * URL: it carries the API key.
 */
export async function httpAttempt(options: HttpAttemptOptions): Promise<HttpAnswer> {
  const controller = new AbortController()
  let timedOut = false
  const timer = options.clock.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = (): void => controller.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    if (options.signal?.aborted) throw options.signal.reason
    // 'manual': fetch would follow up to 20 redirects inside this one attempt, past the limiter,
    // the quota and the key's origin (redirects.ts follows them, one request per hop).
    const response = await options.fetch(options.url, {
      ...options.init,
      redirect: 'manual',
      signal: controller.signal,
    })
    const text = await readCapped(response, options.maxBodyBytes, options.what)
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      retryAfter: response.headers.get('retry-after'),
      location: response.headers.get('location'),
      text,
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    if (options.signal?.aborted) throw options.signal.reason
    if (timedOut) {
      throw new AppError(
        'timeout',
        `The service did not answer ${options.what} within ${Math.round(options.timeoutMs / 100) / 10} s.`,
      )
    }
    // No `cause`: fetch's own errors can quote the URL, which carries the key.
    throw new AppError('offline', `${networkProblem(error)} while fetching ${options.what}.`)
  } finally {
    options.clock.clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

async function readCapped(response: Response, max: number, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0')
  if (declared > max) {
    await response.body?.cancel()
    throw new AppError('protocol', `The service's answer to ${what} is larger than ${max} bytes.`)
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      throw new AppError('protocol', `The service's answer to ${what} is larger than ${max} bytes.`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The system error code, wherever undici put it (cause, a nested cause, an AggregateError). */
function errorCode(error: unknown, depth = 0): string {
  if (!isRecord(error) || depth > 4) return ''
  if (typeof error.code === 'string' && /^E[A-Z]+$|^UND_ERR/.test(error.code)) return error.code
  return errorCode(error.cause, depth + 1) || (Array.isArray(error.errors) ? errorCode(error.errors[0], depth + 1) : '')
}

/** Plain words for a failed connection; the low-level code is kept in brackets for support. */
function networkProblem(error: unknown): string {
  const code = errorCode(error)
  switch (code) {
    case 'ECONNREFUSED':
      return 'Nothing answers at the service address (connection refused)'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The service address cannot be resolved; the computer may be offline (DNS)'
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'EPIPE':
      return 'The connection to the service dropped before it answered'
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'The network is unreachable; the computer may be offline'
    default:
      return `The service could not be reached${code ? ` (${code})` : ''}`
  }
}
