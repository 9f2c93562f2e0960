import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { traceRefusal } from '../entities/trace-support'

/**
 * Some providers refuse a method their plan does not include with HTTP 403 and a JSON-RPC error
 * naming the plan (Alchemy's free tier and trace methods): that is the call's answer, readable
 * as a refusal of the method, while a 403 about the key stays the key's problem.
 */
let server: Awaited<ReturnType<typeof startScriptedServer>>
let message = ''

beforeAll(async () => {
  server = await startScriptedServer()
  server.script((req: Seen, res: ServerResponse) => {
    const body = JSON.parse(req.body) as { id: number }
    json(res, 403, { jsonrpc: '2.0', id: body.id, error: { code: -32600, message } })
  })
})
afterAll(async () => {
  await server.close()
})

const trace = { method: 'debug_traceTransaction', params: [`0x${'00'.repeat(32)}`, { tracer: 'callTracer' }] }
const opts = { priority: 'user' as const }

describe('an HTTP 403 naming the plan', () => {
  it("is the call's answer, read as a refusal of the method", async () => {
    message = 'debug_traceTransaction is not available on the Free tier - upgrade to Growth or Scale for access'
    const { client } = rpcClientFixture(server.url)
    const [item] = await client.rpcCalls('alpha', [trace], opts)
    expect(item).toMatchObject({ ok: false, code: -32600 })
    expect(traceRefusal(item!)).toContain('not available on the Free tier')
    expect(server.seen.length).toBe(1)
  })

  it('while a 403 about the key is still the key rejected', async () => {
    message = 'Must be authenticated!'
    const { client } = rpcClientFixture(server.url)
    await expect(client.rpcCalls('alpha', [trace], opts)).rejects.toMatchObject({ kind: 'auth' })
  })
})
