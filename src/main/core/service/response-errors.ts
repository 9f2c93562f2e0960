import type { z } from 'zod'
import { AppError } from '../util/app-error'
import type { HttpAnswer } from './http-attempt'
import { formatDuration } from '../../../shared/domain/duration'

/**
 * Turns the service's answers into typed results or typed errors. Spec 7 describes no error
 * format, so the body is read tolerantly (the sandbox's `{error, message, limit,
 * retry_after_s, parameter}` is understood when present) and the status decides the kind.
 */

/** A short, printable excerpt of a body for a protocol error: never the key (callers redact). */
export function safeExcerpt(text: string, redact: (s: string) => string, max = 160): string {
  const flat = redact(text).replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim()
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
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as ErrorBody) : {}
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

/** The typed error of a non-2xx answer. */
export function errorForStatus(answer: HttpAnswer, what: string, nowMs: number, redact: (s: string) => string): AppError {
  const body = parseErrorBody(answer.text)
  const serverSays = typeof body.message === 'string' ? safeExcerpt(body.message, redact, 200) : ''
  const status = answer.status
  if (status === 400 || status === 422) {
    const field = typeof body.parameter === 'string' ? safeExcerpt(body.parameter, redact, 40) : undefined
    return new AppError('invalid-input', `The service rejected ${field ? `the ${field} parameter of ` : ''}${what}${serverSays ? `: ${serverSays}` : '.'}`, field ? { field } : {})
  }
  if (status === 401 || status === 403) {
    return new AppError('auth', `The service refused the API key (HTTP ${status}). Check or replace the key in Settings → Profiles.`)
  }
  if (status === 404) {
    return new AppError('not-found', `The service does not know ${what} (HTTP 404)${serverSays ? `: ${serverSays}` : ''}. Check the profile's addresses and network names.`)
  }
  if (status === 429) {
    const wait = retryAfterMs(answer, nowMs)
    if (body.limit === 'quota') {
      return new AppError('quota-exhausted', `The service says today's request quota is used up. It resets in about ${formatDuration(wait)}.`, { retryAfterMs: wait })
    }
    const which = body.limit === 'burst' || body.limit === 'rate' ? ` (${body.limit} limit)` : ''
    return new AppError('rate-limited', `The service asked Chainscope to slow down${which}; it may retry in ${formatDuration(wait)}.`, { retryAfterMs: wait })
  }
  if (status === 408 || status === 504) {
    return new AppError('timeout', `The service timed out on ${what} (HTTP ${status}).`)
  }
  if (status >= 500) {
    const excerpt = safeExcerpt(answer.text, redact)
    return new AppError('server', `The service failed on ${what} (HTTP ${status}). This is on the service's side; try again later.`, excerpt ? { data: excerpt } : {})
  }
  return new AppError('protocol', `The service answered ${what} with an unexpected HTTP ${status}.`, { data: safeExcerpt(answer.text, redact) })
}

/** Parses a 2xx JSON body against `schema` (tolerant of extra fields, strict on used ones). */
export function parseBody<S extends z.ZodType>(answer: HttpAnswer, schema: S, what: string, redact: (s: string) => string): z.output<S> {
  let json: unknown
  try {
    json = JSON.parse(answer.text)
  } catch {
    const kind = /^\s*</.test(answer.text) ? 'an HTML page' : answer.text.trim() === '' ? 'an empty body' : 'a body that is not valid JSON (malformed or cut short)'
    throw new AppError('protocol', `The service answered ${what} with ${kind}.`, { data: safeExcerpt(answer.text, redact) })
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = issue?.path.length ? issue.path.join('.') : 'the body'
    throw new AppError('protocol', `The service's answer to ${what} has an unexpected shape at ${path}: ${issue?.message ?? 'invalid'}.`, {
      data: safeExcerpt(answer.text, redact),
    })
  }
  return parsed.data
}

