import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import { addressTopic, APPROVAL_TOPIC } from '@shared/domain/events'
import { createCore, type Core } from '../app-core'
import { testCoreOptions } from '../testing/core-options'
import { json, startScriptedServer, type JsonRpcCall } from '../testing/scripted-server'

/**
 * A hostile RPC endpoint (a real HTTP server on loopback) whose approval logs for one owner
 * include a log with a 300-hex-digit transaction hash. That log is dropped where it enters, with
 * a count the view reports; the scan completes, a scan of another address after it works, and so
 * does every scan after a restart on the same data folder (issue 43, finding 1).
 */
const KEY = 'sk_live_HOSTILELOGS0123456789abcdefghij'
const HEAD = 100
const ODD = `0x${'1'.repeat(40)}`
const PLAIN = `0x${'2'.repeat(40)}`
const TOKEN = `0x${'3'.repeat(40)}`
const SPENDER = `0x${'4'.repeat(40)}`
const hex = (n: number): string => `0x${n.toString(16)}`
const blockHash = (n: number): string => `0x${n.toString(16).padStart(64, 'b')}`

function approvalLog(owner: string, block: number, tx: string): Record<string, unknown> {
  return {
    address: TOKEN,
    topics: [APPROVAL_TOPIC, addressTopic(owner), addressTopic(SPENDER)],
    data: `0x${'f'.repeat(64)}`,
    blockNumber: hex(block),
    blockHash: blockHash(block),
    logIndex: '0x0',
    transactionHash: tx,
    removed: false,
  }
}

function logsFor(filter: { topics?: unknown[] }): unknown[] {
  const owner = filter.topics?.[1]
  if (owner === addressTopic(ODD))
    return [approvalLog(ODD, 10, `0x${'c'.repeat(64)}`), approvalLog(ODD, 20, `0x${'a'.repeat(300)}`)]
  if (owner === addressTopic(PLAIN)) return [approvalLog(PLAIN, 30, `0x${'d'.repeat(64)}`)]
  return []
}

function answer(c: JsonRpcCall): unknown {
  const ok = (result: unknown) => ({ jsonrpc: '2.0', id: c.id, result })
  switch (c.method) {
    case 'eth_getBlockByNumber': {
      const n = c.params[0] === 'latest' ? HEAD : Number(c.params[0])
      return ok({ number: hex(n), hash: blockHash(n), timestamp: hex(1_700_000_000 + n) })
    }
    case 'eth_blockNumber':
      return ok(hex(HEAD))
    case 'eth_getLogs':
      return ok(logsFor(c.params[0] as { topics?: unknown[] }))
    case 'eth_getCode':
      return ok('0x')
    default:
      return { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: 'not offered here' } }
  }
}

type Call = <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>) => Promise<BridgeCallOutputs[K]>

let service: Awaited<ReturnType<typeof startScriptedServer>>
const dir = mkdtempSync(join(tmpdir(), 'hostile-logs-'))

async function start(): Promise<{ core: Core; call: Call }> {
  const core = await createCore(testCoreOptions(dir, { tuning: { client: { maxAttempts: 1 } } }))
  const call: Call = async (name, input) => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
    return r.value as never
  }
  const existing = (await call('profiles.list', {})).find((p) => p.name === 'Hostile')
  const id =
    existing?.id ??
    (
      await call('profiles.save', {
        name: 'Hostile',
        baseUrl: service.url,
        rpcUrl: `${service.url}/rpc`,
        networks: [
          { name: 'alpha', label: 'Alpha' },
          { name: 'beta', label: 'Beta' },
        ],
      })
    ).id
  await call('profiles.activate', { id })
  await call('key.set', { profileId: id, key: KEY, sessionOnly: true })
  return { core, call }
}

beforeAll(async () => {
  service = await startScriptedServer()
  service.script((req, res) => {
    const body = JSON.parse(req.body || 'null') as JsonRpcCall | JsonRpcCall[] | null
    if (body === null) return json(res, 404, { message: 'no such page' })
    json(res, 200, Array.isArray(body) ? body.map(answer) : answer(body))
  })
})
afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('an approval log with a 300-hex-digit transaction hash', () => {
  it('is skipped with a count; the scan completes, the next address scans, and so does every scan after a restart', async () => {
    let app = await start()
    try {
      const odd = await app.call('approvals.scan', { network: 'alpha', address: ODD })
      expect(odd.scan.scannedTo).toBe(HEAD)
      expect(odd.scan.skippedLogs).toBe(1)
      expect(odd.rows.map((r) => [r.spender.address, r.granted?.tx])).toEqual([[SPENDER, `0x${'c'.repeat(64)}`]])
      const plain = await app.call('approvals.scan', { network: 'alpha', address: PLAIN })
      expect(plain.scan).toMatchObject({ scannedTo: HEAD, skippedLogs: 0 })
      expect(plain.rows).toHaveLength(1)
    } finally {
      await app.core.dispose()
    }
    app = await start()
    try {
      // After a restart: the saved scans load, the count is still told, and both scan again.
      const odd = await app.call('approvals.view', { network: 'alpha', address: ODD })
      expect(odd.scan).toMatchObject({ scannedTo: HEAD, skippedLogs: 1 })
      for (const address of [ODD, PLAIN]) {
        const view = await app.call('approvals.scan', { network: 'alpha', address })
        expect(view.scan.scannedTo).toBe(HEAD)
        expect(view.rows).toHaveLength(1)
      }
    } finally {
      await app.core.dispose()
    }
  })
})
