/** A minimal JSON-RPC 2.0 client for the sandbox's own talk with anvil (loopback, keep-alive). */

export class ChainRpcError extends Error {
  override name = 'ChainRpcError'
  readonly kind = 'chain_rpc'
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message} (code ${code})`)
  }
}

export interface RpcCall {
  method: string
  params?: unknown[]
}

interface RpcReply {
  id: number
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

export class RpcClient {
  private nextId = 1
  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const [reply] = await this.post([{ method, params }])
    return unwrap<T>(method, reply!)
  }

  /** Sends calls as one batch; results come back in call order. */
  async batch<T = unknown>(calls: RpcCall[]): Promise<T[]> {
    if (calls.length === 0) return []
    const replies = await this.post(calls)
    return replies.map((r, i) => unwrap<T>(calls[i]!.method, r))
  }

  /** Like batch, but failed calls come back as ChainRpcError values instead of throwing. */
  async batchSettled(calls: RpcCall[]): Promise<(unknown | ChainRpcError)[]> {
    if (calls.length === 0) return []
    const replies = await this.post(calls)
    return replies.map((r, i) =>
      r.error ? new ChainRpcError(calls[i]!.method, r.error.code, r.error.message, r.error.data) : r.result,
    )
  }

  /** Raw forwarding for the public RPC endpoint: the body is passed as is. */
  async forward(body: string): Promise<string> {
    const response = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    return response.text()
  }

  private async post(calls: RpcCall[]): Promise<RpcReply[]> {
    const first = this.nextId
    this.nextId += calls.length
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: first + i, method: c.method, params: c.params ?? [] }))
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls.length === 1 ? body[0] : body),
    })
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new ChainRpcError(
        calls[0]!.method,
        -32700,
        `anvil answered HTTP ${response.status} with non-JSON: ${text.slice(0, 200)}`,
      )
    }
    const list = (Array.isArray(parsed) ? parsed : [parsed]) as RpcReply[]
    const byId = new Map(list.map((r) => [r.id, r]))
    return calls.map(
      (c, i) => byId.get(first + i) ?? { id: first + i, error: { code: -32603, message: `no reply for ${c.method}` } },
    )
  }
}

function unwrap<T>(method: string, reply: RpcReply): T {
  if (reply.error) throw new ChainRpcError(method, reply.error.code, reply.error.message, reply.error.data)
  return reply.result as T
}
