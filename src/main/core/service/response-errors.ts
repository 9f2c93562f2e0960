import type { z } from 'zod'
import { AppError } from '../util/app-error'
import type { HttpAnswer } from './http-attempt'
import { formatDuration } from '@shared/domain/duration'
import { isRecord } from '@shared/guards'
import type { Redact } from '../util/logger'
import type { ServiceContext } from './service-types'

/**
 * Turns the service's answers into typed results or typed errors. Spec 7 describes no error
 * format, so the body is read tolerantly (the sandbox's `{error, message, limit,
 * retry_after_s, parameter}` is understood when present) and the status decides the kind.
 */

/** A short, printable excerpt of a body for a protocol error: never the key (callers redact). */
export function safeExcerpt(text: string, redact: Redact, max = 160): string {
  const flat = redact(text)
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  return flat.length > max ? `${flat.slice(0, max)}…` : flat
}

interface ErrorBody {
  error?: unknown
  message?: unknown
  limit?: unknown
  retry_after_s?: unknown
  parameter?: unknown
}

function parseErrorBody(text: string): ErrorBody {
  try {
    const v: unknown = JSON.parse(text)
    return isRecord(v) ? v : {}
  } catch {
    return {}
  }
}

/** `Retry-After` as seconds or an HTTP date; else the body's `retry_after_s`; else 1 s. */
export function retryAfterMs(answer: HttpAnswer, nowMs: number): number {
  const header = answer.retryAfter?.trim()
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) return Math.max(0, Math.round(Number(header) * 1000))
    const at = Date.parse(header)
    if (Number.isFinite(at)) return Math.max(0, at - nowMs)
  }
  const body = parseErrorBody(answer.text)
  if (typeof body.retry_after_s === 'number' && Number.isFinite(body.retry_after_s) && body.retry_after_s >= 0) {
    return Math.round(body.retry_after_s * 1000)
  }
  return 1000
}

/** The longest pause a service may impose (docs/decisions/service-edges.md); a longer one is reported as a refusal. */
export const MAX_SERVER_PAUSE_MS = 60_000

/** "14:05 UTC": when something the service said ends. */
export function utcClock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`
}

/**
 * A 429 that means "today's quota is gone" (spec 8 defines no error bodies): the sandbox's
 * `limit: "quota"`, or a text that speaks of a daily quota or limit.
 */
function quotaShaped(body: ErrorBody, text: string): boolean {
  if (body.limit === 'quota') return true
  if (body.limit !== undefined) return false
  const said = `${typeof body.message === 'string' ? body.message : ''} ${typeof body.error === 'string' ? body.error : ''} ${text.slice(0, 2000)}`
  return /\bquota\b|\bdaily\b|per day|today|24 ?h/i.test(said)
}

/**
 * The service's daily quota is gone: until its `Retry-After`, or else until 00:00 UTC
 * (docs/decisions/refusals-wording.md). The limiter believes it (`markQuotaExhausted`), so the meter shows it used up.
 */
export function quotaExhausted(answer: HttpAnswer | null, nowMs: number, how: string): AppError {
  const body = answer ? parseErrorBody(answer.text) : {}
  const said = answer !== null && (answer.retryAfter !== null || typeof body.retry_after_s === 'number')
  const midnight = Date.UTC(
    new Date(nowMs).getUTCFullYear(),
    new Date(nowMs).getUTCMonth(),
    new Date(nowMs).getUTCDate() + 1,
  )
  const wait = said ? retryAfterMs(answer, nowMs) : midnight - nowMs
  return new AppError(
    'quota-exhausted',
    // The renderer adds the way forward for this kind (saved copies stay; work again after the reset).
    `Daily quota used up at the service${how} until ${utcClock(nowMs + wait)}.`,
    { retryAfterMs: wait },
  )
}

/** The typed error of a non-2xx answer. */
export function errorForStatus(answer: HttpAnswer, what: string, ctx: ServiceContext): AppError {
  const { redact } = ctx
  const nowMs = ctx.clock.now()
  const body = parseErrorBody(answer.text)
  const serverSays = typeof body.message === 'string' ? safeExcerpt(body.message, redact, 200) : ''
  const status = answer.status
  if (status === 400 || status === 422) {
    const field = typeof body.parameter === 'string' ? safeExcerpt(body.parameter, redact, 40) : undefined
    return new AppError(
      'invalid-input',
      `The service rejected ${field ? `the ${field} parameter of ` : ''}${what}${serverSays ? `: ${serverSays}` : '.'}`,
      field ? { field } : {},
    )
  }
  if (status === 401 || status === 403) {
    // Plain-text or JSON, the body adds nothing the user can act on: the key is what to fix.
    return new AppError(
      'auth',
      `Key rejected — fix the key in Settings → Profiles (the service answered HTTP ${status}).`,
    )
  }
  if (status === 404) {
    return new AppError(
      'not-found',
      `The service does not know ${what} (HTTP 404)${serverSays ? `: ${serverSays}` : ''}. Check the profile's addresses and network names.`,
    )
  }
  // Infura's daily cap: HTTP 402 Payment Required (-33000) until 00:00 UTC; no other reading of 402 fits.
  if (status === 402) return quotaExhausted(answer, nowMs, ' (HTTP 402 Payment Required)')
  if (status === 429) {
    if (quotaShaped(body, answer.text)) return quotaExhausted(answer, nowMs, '')
    const wait = retryAfterMs(answer, nowMs)
    if (wait > MAX_SERVER_PAUSE_MS) {
      return new AppError(
        'rate-limited',
        `The service refuses requests for ${formatDuration(wait)} (until ${utcClock(nowMs + wait)}). Chainscope pauses this profile for ${MAX_SERVER_PAUSE_MS / 1000} s at a time, then tries again when asked.`,
        { retryAfterMs: wait },
      )
    }
    const which = body.limit === 'burst' || body.limit === 'rate' ? ` (${body.limit} limit)` : ''
    return new AppError(
      'rate-limited',
      `The service asked Chainscope to slow down${which}; it may retry in ${formatDuration(wait)}.`,
      { retryAfterMs: wait },
    )
  }
  if (status === 408 || status === 504) {
    return new AppError('timeout', `The service timed out on ${what} (HTTP ${status}).`)
  }
  if (status >= 500) {
    const excerpt = safeExcerpt(answer.text, redact)
    return new AppError(
      'server',
      `The service failed on ${what} (HTTP ${status}). This is on the service's side; try again later.`,
      excerpt ? { data: excerpt } : {},
    )
  }
  return new AppError('protocol', `The service answered ${what} with an unexpected HTTP ${status}.`, {
    data: safeExcerpt(answer.text, redact),
  })
}

/**
 * Deepest nesting of arrays and objects accepted in a data API body. Real answers nest a
 * dozen levels; 200,000 levels parse, then break every later step (snapshot, bridge) that
 * walks the value. Matches the bridge's scrub depth.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Deepest nesting accepted in a JSON-RPC body: a callTracer answer nests two levels per call
 * frame (the frame and its `calls`), and the EVM allows 1,024 frames, so a real trace of the
 * deepest call fits with room for the envelope; a hostile 10,000-deep answer is refused here,
 * naming the limit, before anything walks it. The trace reader bounds frames and depth again
 * (entities/call-tree.ts) and hands on a flat list, so nothing after it nests deeply.
 */
export const MAX_RPC_JSON_DEPTH = 2 * 1025 + 16

/** How a body is parsed: the redaction of excerpts, and the deepest nesting accepted (default MAX_JSON_DEPTH). */
export interface BodyOptions extends Pick<ServiceContext, 'redact'> {
  maxDepth?: number
}

/** Whether `text` nests arrays/objects deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/** JSON.parse of a service body (V8's is not recursive), refusing one nested deeper than `maxDepth` (default MAX_JSON_DEPTH) as malformed. */
export function parseServiceJson(
  answer: HttpAnswer,
  what: string,
  { redact, maxDepth = MAX_JSON_DEPTH }: BodyOptions,
): unknown {
  if (nestsDeeperThan(answer.text, maxDepth)) {
    throw new AppError(
      'protocol',
      `The service answered ${what} with a malformed body (nested more than ${maxDepth.toLocaleString('en')} levels deep).`,
      {
        data: safeExcerpt(answer.text, redact, 80),
      },
    )
  }
  return JSON.parse(answer.text)
}

/** Parses a 2xx JSON body against `schema` (tolerant of extra fields, strict on used ones). */
export function parseBody<S extends z.ZodType>(
  answer: HttpAnswer,
  schema: S,
  what: string,
  ctx: BodyOptions,
): z.output<S> {
  const { redact } = ctx
  let json: unknown
  try {
    json = parseServiceJson(answer, what, ctx)
  } catch (error) {
    if (error instanceof AppError) throw error
    const kind = /^\s*</.test(answer.text)
      ? 'an HTML page'
      : answer.text.trim() === ''
        ? 'an empty body'
        : 'a body that is not valid JSON (malformed or cut short)'
    throw new AppError('protocol', `The service answered ${what} with ${kind}.`, {
      data: safeExcerpt(answer.text, redact),
    })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue?.path.length ? issue.path.join('.') : 'the body'
    throw new AppError(
      'protocol',
      `The service's answer to ${what} has an unexpected shape at ${path}: ${issue?.message ?? 'invalid'}.`,
      {
        data: safeExcerpt(answer.text, redact),
      },
    )
  }
  return parsed.data
}
