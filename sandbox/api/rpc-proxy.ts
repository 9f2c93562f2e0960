import type { RpcClient } from '../chain/rpc-client'
import type { Reply } from './http'
import {
  batchCapReply,
  DEFAULT_MODES,
  itemRateError,
  logCapRefusal,
  logSpan,
  tagRefusal,
  traceCallRefusal,
  type ProviderModes,
} from './provider-modes'

/**
 * The public JSON-RPC endpoint of one network. Only the standard families (eth_, net_,
 * web3_) and the one trace method of the provider mode (`traceCallRefusal`) reach the chain; anvil's admin families (anvil_, evm_, debug_, hardhat_, ...) and the
 * node-key methods a hosted service cannot offer (signing with the node's accounts) answer
 * -32601, and eth_accounts answers [] like a public node. A batch is at most 100 calls.
 */

export const MAX_BATCH = 100
const ALLOWED = /^(eth|net|web3)_[A-Za-z0-9_]+$/
const NODE_KEY_METHODS = new Set([
  'eth_sendTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendUnsignedTransaction',
])

type Id = string | number | null
interface RpcResponse {
  jsonrpc: '2.0'
  id: Id
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

const error = (id: Id, code: number, message: string): RpcResponse => ({ jsonrpc: '2.0', id, error: { code, message } })
const reply = (value: unknown): Reply => ({ status: 200, contentType: 'application/json', body: JSON.stringify(value) })

type Checked =
  | { kind: 'answer'; response: RpcResponse | null }
  | { kind: 'forward'; id: Id; notification: boolean; method: string; params: unknown }

function check(item: unknown, modes: ProviderModes): Checked {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return { kind: 'answer', response: error(null, -32600, 'Invalid Request: expected a JSON-RPC request object') }
  }
  const r = item as Record<string, unknown>
  const idOk = !('id' in r) || typeof r.id === 'string' || typeof r.id === 'number' || r.id === null
  const id: Id = idOk && 'id' in r ? (r.id as Id) : null
  if (!idOk)
    return { kind: 'answer', response: error(null, -32600, 'Invalid Request: id must be a string, number or null') }
  if (r.jsonrpc !== '2.0')
    return { kind: 'answer', response: error(id, -32600, 'Invalid Request: jsonrpc must be "2.0"') }
  if (typeof r.method !== 'string' || r.method === '')
    return { kind: 'answer', response: error(id, -32600, 'Invalid Request: method must be a non-empty string') }
  if ('params' in r && (typeof r.params !== 'object' || r.params === null)) {
    return { kind: 'answer', response: error(id, -32600, 'Invalid Request: params must be an array or an object') }
  }
  const notification = !('id' in r)
  const trace = traceCallRefusal(id, r.method, r.params ?? [], modes)
  if (trace === null) return { kind: 'forward', id, notification, method: r.method, params: r.params ?? [] }
  if (trace) return { kind: 'answer', response: notification ? null : trace }
  if (!ALLOWED.test(r.method) || NODE_KEY_METHODS.has(r.method)) {
    return {
      kind: 'answer',
      response: notification ? null : error(id, -32601, `the method ${r.method} does not exist/is not available`),
    }
  }
  if (r.method === 'eth_accounts')
    return { kind: 'answer', response: notification ? null : { jsonrpc: '2.0', id, result: [] } }
  return { kind: 'forward', id, notification, method: r.method, params: r.params ?? [] }
}

export async function handleRpc(body: string, chain: RpcClient, modes: ProviderModes = DEFAULT_MODES): Promise<Reply> {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return reply(error(null, -32700, 'Parse error: the body is not valid JSON'))
  }
  const batch = Array.isArray(parsed)
  const items = batch ? (parsed as unknown[]) : [parsed]
  if (batch && items.length === 0) return reply(error(null, -32600, 'Invalid Request: empty batch'))
  const capped = batch && modes.batchCap < MAX_BATCH ? batchCapReply(items.length, modes) : null
  if (capped) return capped
  if (items.length > MAX_BATCH)
    return reply(error(null, -32600, `Invalid Request: a batch holds at most ${MAX_BATCH} calls`))
  const checked = items.map((item) => check(item, modes))
  const refused = await providerRefusals(checked, chain, modes)
  if (refused) return refused
  const forwards = checked.flatMap((c, i) => (c.kind === 'forward' ? [{ ...c, internal: i }] : []))
  const answers = new Map<number, RpcResponse>()
  if (forwards.length > 0) {
    // Internal ids: callers may reuse ids within a batch; the replies map back by position.
    const request = forwards.map((f) => ({ jsonrpc: '2.0', id: f.internal, method: f.method, params: f.params }))
    try {
      const raw = JSON.parse(await chain.forward(JSON.stringify(request))) as unknown
      for (const r of (Array.isArray(raw) ? raw : [raw]) as RpcResponse[]) {
        if (typeof r?.id === 'number') answers.set(r.id, r)
      }
    } catch {
      // The chain is unreachable or answered garbage: every forwarded call gets -32603.
    }
  }
  const responses: RpcResponse[] = []
  checked.forEach((c, i) => {
    if (c.kind === 'answer') {
      if (c.response) responses.push(c.response)
      return
    }
    if (c.notification) return
    const answer = answers.get(i)
    if (!answer) responses.push(error(c.id, -32603, 'Internal error: the chain did not answer'))
    else
      responses.push(
        answer.error
          ? { jsonrpc: '2.0', id: c.id, error: answer.error }
          : { jsonrpc: '2.0', id: c.id, result: answer.result },
      )
  })
  // JSON-RPC 2.0: nothing at all is returned when every call was a notification.
  if (responses.length === 0) return { status: 204, body: '' }
  const every = modes.itemErrorEvery
  if (batch && every !== null)
    responses.forEach((r, i) => {
      if ((i + 1) % every === 0 && r.error === undefined) responses[i] = itemRateError(r.id)
    })
  return reply(batch ? responses : responses[0])
}

/**
 * The provider modes' refusals of single calls (provider-modes.ts): an unknown block tag, an
 * `eth_getLogs` over the range cap. Such calls are answered here instead of forwarded; a
 * refusal of the whole request (HTTP 413) is returned.
 */
async function providerRefusals(checked: Checked[], chain: RpcClient, modes: ProviderModes): Promise<Reply | null> {
  let head: number | null = null
  for (const [i, c] of checked.entries()) {
    if (c.kind !== 'forward') continue
    const tag = tagRefusal(c.id, c.method, c.params, modes)
    if (tag) {
      checked[i] = { kind: 'answer', response: c.notification ? null : tag }
      continue
    }
    if (c.method !== 'eth_getLogs' || modes.logCap === null) continue
    head ??= await chainHead(chain)
    const span = logSpan(c.params, head)
    const refusal = span ? logCapRefusal(c.id, span, modes) : null
    if (refusal && 'reply' in refusal) return refusal.reply
    if (refusal) checked[i] = { kind: 'answer', response: c.notification ? null : refusal.error }
  }
  return null
}

async function chainHead(chain: RpcClient): Promise<number> {
  try {
    const raw = JSON.parse(
      await chain.forward(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })),
    ) as {
      result?: unknown
    }
    return typeof raw.result === 'string' ? Number.parseInt(raw.result, 16) : 0
  } catch {
    return 0
  }
}
