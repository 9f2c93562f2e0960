import type { IncomingMessage } from 'node:http'

/** A response computed before it is written, so the fault switch can rewrite or cut it. */
export interface Reply {
  status: number
  body: string
  contentType?: string
  headers?: Record<string, string>
}

export function json(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: JSON.stringify(value), contentType: 'application/json', headers }
}

/** Error bodies: `error` is a stable code, `message` a sentence for people. */
export function errorReply(
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Reply {
  return json(status, { error, message, ...extra }, headers)
}

export const notFound = (message: string): Reply => errorReply(404, 'not_found', message)

export const invalidParameter = (parameter: string, message: string): Reply =>
  errorReply(400, 'invalid_parameter', message, { parameter })

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError'
  readonly kind = 'body_too_large'
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`)
  }
}

export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw new BodyTooLargeError(limit)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}
