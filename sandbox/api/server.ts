import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { z } from 'zod'
import type { RpcClient } from '../chain/rpc-client'
import { balances, transactions } from './data-api'
import { transferInputSchema, type TransferHook } from './admin-transfer'
import { replayAnswer, type Replay } from './replay'
import { faultReply, faultsInputSchema, FaultSwitch } from './faults'
import type { FormatContext } from './format'
import { BodyTooLargeError, errorReply, json, notFound, readBody, type Reply } from './http'
import { iconSvg } from './icons'
import { KeyLimiter, type LimitOptions } from './limits'
import { handleRpc } from './rpc-proxy'
import { DEFAULT_MODES, quota402Reply, requestUnits, type ProviderModes } from './provider-modes'
import { Stats, type Endpoint } from './stats'

export interface ServedNetwork {
  ctx: FormatContext
  rpc: RpcClient
}

export interface ServerOptions {
  /** Default 127.0.0.1: the sandbox is for this machine only. */
  host?: string
  /** 0 picks a free port. */
  port: number
  apiKeys: string[]
  limits: Omit<LimitOptions, 'now'>
  /** Enables /__sandbox/stats and /__sandbox/faults (404 otherwise). */
  admin: boolean
  /** 401 and 429 as plain text, without `Retry-After` (`--plain-errors`). Default false. */
  plainErrors?: boolean
  /** Filled once the chains are ready; a name not here is an unknown network. */
  networks: Map<string, ServedNetwork>
  /** Answers a batch (a JSON array) with one -32600 error object, as some providers do. Default false. */
  noBatch?: boolean
  /** The provider it plays (billing, caps, dialects; provider-modes.ts). Default: none of it. */
  modes?: ProviderModes
  /** POST /__sandbox/transfer (admin only); set once the chains run. */
  transfer?: { hook: TransferHook | null }
  log(message: string): void
  /** `--replay DIR`: one address answered from item files (replay.ts). */
  replay?: Replay
}

export interface SandboxServer {
  url: string
  stats: Stats
  faults: FaultSwitch
  close(): Promise<void>
}

const MAX_BODY = 1 << 20

export async function startServer(options: ServerOptions): Promise<SandboxServer> {
  const stats = new Stats()
  const faults = new FaultSwitch()
  const keys = new Set(options.apiKeys)
  const modes = options.modes ?? DEFAULT_MODES
  const limiters = new Map<string, KeyLimiter>()
  const limiterOf = (key: string): KeyLimiter => {
    let l = limiters.get(key)
    if (!l) limiters.set(key, (l = new KeyLimiter(options.limits)))
    return l
  }

  /** Key, limits and network, in that order; then the endpoint's own work. */
  const guarded =
    (
      endpoint: Endpoint,
      key: string | null,
      network: string,
      work: (n: ServedNetwork) => Promise<Reply> | Reply,
      units = 1,
    ) =>
    async (): Promise<Reply> => {
      if (!key || !keys.has(key)) {
        stats.unauthorized += 1
        const where = endpoint === 'rpc' ? 'as the last path segment' : 'in the api_key query parameter'
        const message = key ? `unknown API key (send it ${where})` : `missing API key (send it ${where})`
        return options.plainErrors
          ? plainReply(401, `Unauthorized: ${message}`)
          : errorReply(401, 'unauthorized', message)
      }
      stats.request(key, endpoint)
      const verdict = limiterOf(key).take(units)
      if (!verdict.ok) {
        stats.rejected(key, verdict.limit)
        if (verdict.limit === 'quota' && modes.quota402) return quota402Reply()
        if (options.plainErrors) return plainReply(429, `Too Many Requests: ${verdict.message}`)
        return errorReply(
          429,
          'rate_limited',
          verdict.message,
          { limit: verdict.limit, retry_after_s: verdict.retryAfterS },
          { 'retry-after': String(verdict.retryAfterS) },
        )
      }
      stats.billed(key, units)
      const served = options.networks.get(network)
      if (!served) return notFound(`unknown network '${network}'`)
      return work(served)
    }

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<Reply | null> => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid')
    const parts = url.pathname.split('/').slice(1)
    const method = req.method ?? 'GET'
    const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? await readBody(req, MAX_BODY) : ''
    let endpoint: Endpoint | null = null
    let run: (() => Promise<Reply>) | null = null
    if (parts[0] === 'api' && parts[1] === 'v1' && parts.length === 4 && parts[2]) {
      const kind = parts[3]
      if (kind === 'balance' || kind === 'balances' || kind === 'transactions') {
        if (method !== 'GET') return errorReply(405, 'method_not_allowed', `use GET for ${kind}`, {}, { allow: 'GET' })
        endpoint = kind === 'transactions' ? 'transactions' : 'balance'
        // Only a non-empty api_key counts: the empty slots echoed from next_page_params never
        // override the real key, and `apikey` is not a credential (spec 5).
        const key = url.searchParams.getAll('api_key').find((k) => k !== '') ?? null
        const query = url.searchParams
        const replayed = (kind: 'transactions' | 'balance'): Reply | null =>
          options.replay ? replayAnswer(options.replay, kind, query) : null
        run = guarded(endpoint, key, parts[2], (n) =>
          endpoint === 'transactions'
            ? (replayed('transactions') ?? transactions(n.ctx, query))
            : (replayed('balance') ?? balances(n.ctx, query)),
        )
      }
    } else if (parts[0] === 'rpc' && (parts.length === 2 || parts.length === 3) && parts[1]) {
      if (method !== 'POST')
        return errorReply(405, 'method_not_allowed', 'JSON-RPC calls use POST', {}, { allow: 'POST' })
      endpoint = 'rpc'
      const key = parts[2] ? decodeURIComponent(parts[2]) : null
      run = guarded(
        'rpc',
        key,
        parts[1],
        (n) => (options.noBatch && isBatch(body) ? batchRefused() : handleRpc(body, n.rpc, modes)),
        requestUnits(body, modes),
      )
    } else if (parts[0] === 'static' && parts[1] === 'icons' && parts.length === 3 && method === 'GET') {
      const svg = iconSvg((parts[2] ?? '').replace(/\.svg$/, ''))
      return svg
        ? {
            status: 200,
            body: svg,
            contentType: 'image/svg+xml',
            headers: { 'cache-control': 'public, max-age=86400' },
          }
        : notFound('no such icon')
    } else if (parts[0] === '__sandbox' && parts.length === 2 && options.admin) {
      if (parts[1] === 'transfer') return adminTransfer(method, body)
      return admin(parts[1]!, method, body)
    }
    if (!run || !endpoint) return notFound(`no such path: ${url.pathname}`)
    const fault = faults.decide(endpoint)
    if (!fault) return run()
    stats.faultsInjected += 1
    if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs))
    if (!fault.mode) return run()
    const replaced = faultReply(fault.mode, run)
    if (!replaced) {
      res.socket?.destroy()
      return null
    }
    return replaced
  }

  const admin = (what: string, method: string, body: string): Reply => {
    if (what === 'stats' && method === 'GET') return json(200, stats.toJSON())
    if (what === 'faults' && method === 'DELETE') {
      faults.clear()
      return json(200, { faults: faults.current })
    }
    if (what === 'faults' && method === 'POST') {
      const parsed = parseAdminBody(body, faultsInputSchema)
      return 'reply' in parsed ? parsed.reply : json(200, { faults: faults.set(parsed.data) })
    }
    if (what === 'faults' || what === 'stats')
      return errorReply(405, 'method_not_allowed', `${method} is not supported here`)
    return notFound(`no such path: /__sandbox/${what}`)
  }

  const adminTransfer = async (method: string, body: string): Promise<Reply> => {
    if (method !== 'POST')
      return errorReply(405, 'method_not_allowed', 'use POST for /__sandbox/transfer', {}, { allow: 'POST' })
    const parsed = parseAdminBody(body, transferInputSchema)
    if ('reply' in parsed) return parsed.reply
    if (!options.networks.has(parsed.data.network)) return notFound(`unknown network '${parsed.data.network}'`)
    const hook = options.transfer?.hook
    if (!hook) return errorReply(503, 'not_ready', 'the chains are not running yet')
    return json(200, await hook(parsed.data))
  }

  const server = createServer((req, res) => {
    route(req, res)
      .then((reply) => reply && send(res, reply))
      .catch((error: unknown) => {
        // The rest of an oversized body is never read, so this connection cannot carry another request.
        if (error instanceof BodyTooLargeError)
          return send(res, errorReply(413, 'payload_too_large', error.message, {}, { connection: 'close' }))
        // The RPC path's last segment is the key: never log it.
        options.log(
          `request ${req.method} ${(req.url?.split('?')[0] ?? '').replace(/^(\/rpc\/[^/]+\/).+$/, '$1…')} failed: ${error instanceof Error ? error.stack : String(error)}`,
        )
        send(res, errorReply(500, 'internal', 'the sandbox failed to answer this request'))
      })
  })
  server.keepAliveTimeout = 10_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** An admin call's JSON body through its schema; a 400 naming the bad field otherwise. */
function parseAdminBody<T>(body: string, schema: z.ZodType<T>): { data: T } | { reply: Reply } {
  let input: unknown
  try {
    input = JSON.parse(body || '{}')
  } catch {
    return { reply: errorReply(400, 'invalid_parameter', 'the body is not valid JSON', { parameter: 'body' }) }
  }
  const parsed = schema.safeParse(input)
  if (parsed.success) return { data: parsed.data }
  const issue = parsed.error.issues[0]!
  return { reply: errorReply(400, 'invalid_parameter', issue.message, { parameter: issue.path.join('.') || 'body' }) }
}

/** A JSON array body, judged by its first non-blank character (a malformed one still gets -32700 from handleRpc). */
function isBatch(body: string): boolean {
  return body.trimStart().startsWith('[')
}

/** What a provider without batch support answers: one error object, id null (JSON-RPC 2.0 section 5). */
function batchRefused(): Reply {
  return json(200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } })
}

/** A bare text answer, as many providers give (no JSON, no Retry-After). */
function plainReply(status: number, text: string): Reply {
  return { status, contentType: 'text/plain; charset=utf-8', body: `${text}\n` }
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return
  const body = Buffer.from(reply.body, 'utf8')
  res.writeHead(reply.status, {
    ...(reply.contentType ? { 'content-type': reply.contentType } : {}),
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...reply.headers,
  })
  res.end(body)
}
