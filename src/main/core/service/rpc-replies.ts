import type { z } from 'zod'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { rpcErrorObjectSchema, type rpcResponseSchema } from '@shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import type { Redact } from '../util/logger'

/** JSON-RPC replies read as outcomes (JSON-RPC 2.0, section 5), for rpc-transport.ts. */

/**
 * The endpoint refused a JSON-RPC batch as such: one error object or a single result instead
 * of a list, or an HTTP 4xx other than auth, payment, timeout and rate limit. `rpcCalls` splits
 * it or falls back to single calls (batch-sizes.ts); the RPC console shows it as the
 * `rpc`/`protocol` error it is.
 */
export class BatchRefusedError extends AppError {}

type RpcError = z.infer<typeof rpcErrorObjectSchema>

/** The JSON-RPC error object a body carries (`{"error": {code, message}}`), whatever its HTTP status; else null. */
export function jsonRpcErrorIn(text: string): RpcError | null {
  if (text.length > 65_536 || !/^\s*\{/.test(text)) return null
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body !== 'object' || body === null || !('error' in body)) return null
    const error = rpcErrorObjectSchema.safeParse(body.error)
    return error.success ? error.data : null
  } catch {
    return null
  }
}

/**
 * A list that is really a refusal of the batch's size: every reply an error about the batch
 * ("batch too large" repeated per call), or fewer replies than calls (a provider that answers
 * only the first N: N is taken as its cap). Null for a list of answers.
 */
export function sizeRefusalInList(
  replies: z.infer<typeof rpcResponseSchema>[],
  calls: number,
  what: string,
  redact: Redact,
): BatchRefusedError | null {
  const errors = replies.map((r) => rpcErrorObjectSchema.safeParse(r.error)).filter((e) => e.success)
  if (replies.length > 0 && errors.length === replies.length) {
    const first = errors[0]!.data
    if (/\bbatch\b/i.test(first.message) && errors.every((e) => e.data.message === first.message)) {
      const err = rpcError('batch', first, redact)
      return new BatchRefusedError(err.kind, err.message, err.details)
    }
  }
  if (replies.length > 0 && replies.length < calls)
    return new BatchRefusedError(
      'protocol',
      `The RPC endpoint answered only ${replies.length} of ${what}: at most ${replies.length} calls a batch, it seems.`,
    )
  return null
}

export function itemOf(error: AppError): RpcBatchItem {
  return {
    ok: false,
    code: error.details.code ?? 0,
    message: error.message,
    ...(error.details.data !== undefined ? { data: error.details.data } : {}),
  }
}

/** A reply carries exactly one of `result` and a well-formed `error` (JSON-RPC 2.0, section 5). */
export function replyOutcome(reply: Record<string, unknown>, what: string): { result: unknown } | { error: RpcError } {
  if (reply.error !== undefined && reply.error !== null) {
    const error = rpcErrorObjectSchema.safeParse(reply.error)
    if (!error.success)
      throw new AppError('protocol', `The RPC endpoint answered ${what} with a malformed error object.`)
    return { error: error.data }
  }
  if (!('result' in reply))
    throw new AppError('protocol', `The RPC endpoint answered ${what} with neither a result nor an error.`)
  return { result: reply.result }
}

/** Sending a transaction is not idempotent: a retry could send it twice. */
export function isStateChanging(method: string): boolean {
  return /^eth_(send|submit)/.test(method)
}

export function rpcError(method: string, error: RpcError, redact: Redact): AppError {
  const message = redact(error.message).slice(0, 300)
  return new AppError('rpc', `${method} failed: ${message} (JSON-RPC error ${error.code})`, {
    code: error.code,
    ...(error.data !== undefined ? { data: error.data } : {}),
  })
}
