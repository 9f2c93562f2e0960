import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  path: string
  query: URLSearchParams
  body: string
}

export type Script = (req: Seen, res: ServerResponse) => void

/** One JSON-RPC call as a scripted RPC endpoint reads it from a request body. */
export interface JsonRpcCall {
  id: number
  method: string
  params: unknown[]
}

/**
 * A real HTTP server on loopback whose answers a test scripts, for the service answers the
 * sandbox cannot be asked to give (a path spelled one way only, a Retry-After date, a reply
 * to the wrong id, an endless body). Test support only.
 */
export async function startScriptedServer(): Promise<{
  url: string
  seen: Seen[]
  script(fn: Script): void
  close(): Promise<void>
}> {
  const seen: Seen[] = []
  let current: Script = (_req, res) => json(res, 500, { error: 'no script' })
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x')
      const entry = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      seen.push(entry)
      current(entry, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    script: (fn) => {
      current = fn
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}
