import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_UINT256 } from '../../../shared/domain/approvals'
import { addressTopic, APPROVAL_TOPIC } from '../../../shared/domain/events'
import { CoinBalances } from '../balances/coin-balances'
import { LogRanges } from '../service/log-range'
import type { RpcCallSpec } from '../service/service-types'
import { AppError } from '../util/app-error'
import { ApprovalsService, type ApprovalsRuntime } from './approvals-service'
import { ScanStore } from './scan-store'
import { addr } from '../testing/address'

const OWNER = addr('0x1111111111111111111111111111111111111111')
const TOKEN = '0x00000000000000000000000000000000000000aa'
const SPENDER = '0x00000000000000000000000000000000000000bb'
const HEAD = 99
const CAP = 25

/**
 * The scan's stop and resume against a provider that holds one approval log at block 60 and
 * refuses log ranges over CAP blocks (a fault injected below the real log-range planner).
 */
describe('approvals scan', () => {
  let dir: string
  let asked: { from: number; to: number }[]
  let onLogCall: (() => void) | null
  let service: ApprovalsService
  let runtime: ApprovalsRuntime

  const rpc = async (_network: string, call: RpcCallSpec): Promise<unknown> => {
    if (call.method === 'eth_blockNumber') return toHex(HEAD)
    const f = call.params[0] as { fromBlock: string; toBlock: string }
    const from = Number(f.fromBlock)
    const to = Number(f.toBlock)
    asked.push({ from, to })
    if (to - from + 1 > CAP) throw new AppError('rpc', `query exceeds max block range ${CAP}`, { code: -32602 })
    onLogCall?.()
    if (from > 60 || to < 60) return []
    const data = encodeAbiParameters([{ type: 'uint256' }], [MAX_UINT256])
    return [
      {
        address: TOKEN,
        topics: [APPROVAL_TOPIC, addressTopic(OWNER), addressTopic(SPENDER)],
        data,
        blockNumber: toHex(60),
        logIndex: '0x0',
        transactionHash: `0x${'ab'.repeat(32)}`,
      },
    ]
  }

  const open = (): void => {
    service = new ApprovalsService({
      snapshots: { catalogue: async () => [], readEntry: async () => null },
      scans: new ScanStore(dir),
      watchlists: () => [],
      billing: () => 'call',
    })
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'approvals-scan-'))
    asked = []
    onLogCall = null
    const logs = new LogRanges(rpc)
    runtime = {
      profileId: 'p',
      client: {
        rpc,
        logs,
        // The state call answers nothing readable: rows say what the logs tell.
        rpcCalls: async (_n, calls) => calls.map(() => ({ ok: false, code: -32000, message: 'no state here' })),
      },
      balances: new CoinBalances(),
    }
    open()
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('stops when asked, keeps what it read, and resumes from there after a restart', async () => {
    let calls = 0
    onLogCall = () => {
      calls += 1
      if (calls === 2) service.stop('p', 'alpha', OWNER)
    }
    const stopped = await service.scan(runtime, 'alpha', OWNER)
    expect(stopped.scan.scannedTo).toBe(2 * CAP - 1)
    expect(stopped.rows).toEqual([])
    // A restart: the store is read again from disk.
    open()
    onLogCall = null
    asked = []
    const done = await service.scan(runtime, 'alpha', OWNER)
    expect(asked[0]!.from).toBe(2 * CAP)
    expect(asked.every((a) => a.to - a.from + 1 <= CAP)).toBe(true)
    expect(done.scan.scannedTo).toBe(HEAD)
    expect(done.rows).toHaveLength(1)
    expect(done.rows[0]).toMatchObject({
      kind: 'erc20',
      status: 'unknown',
      unlimited: true,
      allowance: MAX_UINT256.toString(),
    })
    expect(done.rows[0]!.granted).toMatchObject({ block: 60, via: 'log' })
    expect(done.stateError).toMatch(/state call was refused/)
  })

  it('refuses a second scan of the same address while one runs', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    let entered: () => void = () => {}
    const inside = new Promise<void>((r) => (entered = r))
    const slow = runtime.client.rpc
    runtime.client.rpc = async (network, call, options) => {
      entered()
      await held
      return slow(network, call, options)
    }
    const first = service.scan(runtime, 'alpha', OWNER)
    await inside
    await expect(service.scan(runtime, 'alpha', OWNER)).rejects.toThrow(/already running/)
    release()
    expect((await first).scan.scannedTo).toBe(HEAD)
  })
})
