import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_UINT256 } from '@shared/domain/approvals'
import { addressTopic, APPROVAL_TOPIC } from '@shared/domain/events'
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
const OTHER = '0x00000000000000000000000000000000000000cc'
const HEAD = 99
const CAP = 25

const amountData = (n: bigint): string => encodeAbiParameters([{ type: 'uint256' }], [n])

/** A chain as the provider tells it: its blocks' hashes differ by `name`; `logsAt` holds each block's logs. */
interface Chain {
  name: string
  logsAt: (block: number) => object[]
}

const blockHash = (chain: Chain, n: number): string => `0x${chain.name.repeat(8)}${n.toString(16).padStart(56, '0')}`

function approvalLog(chain: Chain, block: number, index: number, token: string, spender: string, amount: bigint) {
  return {
    address: token,
    topics: [APPROVAL_TOPIC, addressTopic(OWNER), addressTopic(spender)],
    data: amountData(amount),
    blockNumber: toHex(block),
    blockHash: blockHash(chain, block),
    logIndex: toHex(index),
    transactionHash: `0x${block.toString(16).padStart(60, '0')}${index.toString(16).padStart(4, '0')}`,
  }
}

/** The original chain: one unlimited approval of TOKEN to SPENDER at block 60. */
const chainA: Chain = {
  name: 'a',
  logsAt: (b) => (b === 60 ? [approvalLog(chainA, 60, 0, TOKEN, SPENDER, MAX_UINT256)] : []),
}

/**
 * The scan's stop and resume against a provider that refuses log ranges over CAP blocks (a
 * fault injected below the real log-range planner), on a chain that can be swapped for another.
 */
describe('approvals scan', () => {
  let dir: string
  let asked: { from: number; to: number }[]
  let onLogCall: (() => void) | null
  let chain: Chain
  let service: ApprovalsService
  let runtime: ApprovalsRuntime

  const rpc = async (_network: string, call: RpcCallSpec): Promise<unknown> => {
    if (call.method === 'eth_getBlockByNumber') {
      const n = call.params[0] === 'latest' ? HEAD : Number(call.params[0])
      return n > HEAD ? null : { number: toHex(n), hash: blockHash(chain, n) }
    }
    const f = call.params[0] as { fromBlock: string; toBlock: string }
    const from = Number(f.fromBlock)
    const to = Number(f.toBlock)
    asked.push({ from, to })
    if (to - from + 1 > CAP) throw new AppError('rpc', `query exceeds max block range ${CAP}`, { code: -32602 })
    onLogCall?.()
    const logs: object[] = []
    for (let b = from; b <= to; b++) logs.push(...chain.logsAt(b))
    return logs
  }

  const open = (): void => {
    service = new ApprovalsService({
      snapshots: {
        catalogue: async () => [],
        readEntry: async () => null,
        readDigest: async () => null,
        writeDigest: async () => {},
      },
      scans: new ScanStore(dir),
      watchlists: () => [],
      billing: () => 'call',
    })
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'approvals-scan-'))
    asked = []
    onLogCall = null
    chain = chainA
    const logs = new LogRanges(rpc)
    runtime = {
      profileId: 'p',
      client: {
        logs,
        unitsFor: (_network, calls) => calls,
        // Blocks are answered; the state call answers nothing readable: rows say what the logs tell.
        rpcCalls: async (network, calls) =>
          Promise.all(
            calls.map(async (c) =>
              c.method === 'eth_getBlockByNumber'
                ? { ok: true as const, result: await rpc(network, c) }
                : { ok: false as const, code: -32000, message: 'no state here' },
            ),
          ),
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

  it('starts again from block 0 when the chain under a saved scan changed (a sandbox seeded again)', async () => {
    await service.scan(runtime, 'alpha', OWNER)
    // Same height, other blocks: the old approval is not there, another one at block 70 is.
    const chainB: Chain = {
      name: 'b',
      logsAt: (b) => (b === 70 ? [approvalLog(chainB, 70, 0, TOKEN, OTHER, 5n)] : []),
    }
    chain = chainB
    open()
    asked = []
    const again = await service.scan(runtime, 'alpha', OWNER)
    expect(asked[0]!.from).toBe(0)
    expect(again.scan.scannedTo).toBe(HEAD)
    expect(again.rows.map((r) => [r.spender.address, r.allowance])).toEqual([[OTHER, '5']])
    // The same chain once more: the scan resumes after its end and reads nothing.
    asked = []
    await service.scan(runtime, 'alpha', OWNER)
    expect(asked).toEqual([])
  })

  it('keeps a saved scan when the block it checks the chain by is not answered', async () => {
    await service.scan(runtime, 'alpha', OWNER)
    const answer = runtime.client.rpcCalls
    runtime.client.rpcCalls = async (network, calls, options) =>
      calls.length === 2
        ? [(await answer(network, [calls[0]!], options))[0]!, { ok: false, code: -32005, message: 'limit exceeded' }]
        : answer(network, calls, options)
    await expect(service.scan(runtime, 'alpha', OWNER)).rejects.toThrow(
      /did not answer block 99 \(limit exceeded\).*kept/,
    )
    runtime.client.rpcCalls = answer
    asked = []
    expect((await service.scan(runtime, 'alpha', OWNER)).rows).toHaveLength(1)
    expect(asked).toEqual([])
  })

  it('keeps the approvals of more than 100,000 approval logs, not the logs, and loads them again', async () => {
    const tokens = [TOKEN, '0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2']
    const perBlock = 3_000
    // Blocks 10..59: 150,000 approvals, each token's allowance re-set by every third log.
    const busy: Chain = {
      name: 'c',
      logsAt: (b) =>
        b < 10 || b > 59
          ? []
          : Array.from({ length: perBlock }, (_, i) =>
              approvalLog(busy, b, i, tokens[i % 3]!, i % 2 ? SPENDER : OTHER, BigInt(b * perBlock + i)),
            ),
    }
    chain = busy
    const done = await service.scan(runtime, 'alpha', OWNER)
    expect(done.scan.scannedTo).toBe(HEAD)
    // The last log of each token and spender in block 59 holds its allowance.
    const expected = tokens.flatMap((token, k) =>
      [OTHER, SPENDER].map((spender) => {
        let last = -1
        for (let i = 0; i < perBlock; i++) if (i % 3 === k && (i % 2 ? SPENDER : OTHER) === spender) last = i
        return [token, spender, String(59 * perBlock + last)]
      }),
    )
    const brief = (rows: typeof done.rows) =>
      rows
        .map((r) => [r.token.address, r.spender.address, r.allowance])
        .sort((a, b) => a.join().localeCompare(b.join()))
    expect(brief(done.rows)).toEqual(expected.sort((a, b) => a.join().localeCompare(b.join())))
    expect(statSync(join(dir, 'approval-scans.json')).size).toBeLessThan(10_000)
    open()
    const store = new ScanStore(dir)
    expect(store.notice).toBeNull()
    expect(store.get(ScanStore.key('p', 'alpha', OWNER))!.approvals).toHaveLength(6)
    const reloaded = await service.view(runtime, 'alpha', OWNER)
    expect(brief(reloaded.rows)).toEqual(brief(done.rows))
  })

  it('loads a file of the raw-log version: its logs folded, anchored at their newest block', async () => {
    const key = ScanStore.key('p', 'alpha', OWNER)
    const v1 = (logs: object[]) => JSON.stringify({ version: 1, scans: { [key]: { scannedTo: 80, logs } } })
    writeFileSync(join(dir, 'approval-scans.json'), v1([approvalLog(chainA, 60, 0, TOKEN, SPENDER, MAX_UINT256)]))
    open()
    const view = await service.view(runtime, 'alpha', OWNER)
    expect(view.scan.scannedTo).toBe(80)
    expect(view.rows.map((r) => [r.spender.address, r.unlimited])).toEqual([[SPENDER, true]])
    expect(new ScanStore(dir).get(key)!.anchor).toEqual({ block: 60, hash: blockHash(chainA, 60) })
    await service.scan(runtime, 'alpha', OWNER)
    expect(asked[0]!.from).toBe(81)
    // Logs naming no block hash leave nothing to tell the chain by: the scan is forgotten.
    writeFileSync(join(dir, 'approval-scans.json'), v1([]))
    open()
    expect((await service.view(runtime, 'alpha', OWNER)).scan.scannedTo).toBeNull()
    // A damaged file of this version is named by the field at fault and kept aside.
    const bad = { scannedTo: 5, anchor: null, approvals: [{ kind: 'erc20', token: 'nope' }] }
    writeFileSync(join(dir, 'approval-scans.json'), JSON.stringify({ version: 2, scans: { [key]: bad } }))
    const damaged = new ScanStore(dir)
    expect(damaged.notice).toMatch(/approvals\.0\.token/)
    // The last good file (its backup) is what loads.
    expect(damaged.get(key)!.scannedTo).toBe(80)
  })

  it('reads a raw-log file\'s block numbers as hex quantities only: "1e3" anchors nothing', () => {
    const key = ScanStore.key('p', 'alpha', OWNER)
    const v1 = (blockNumber: string) =>
      JSON.stringify({
        version: 1,
        scans: { [key]: { scannedTo: 80, logs: [{ ...approvalLog(chainA, 60, 0, TOKEN, SPENDER, 1n), blockNumber }] } },
      })
    writeFileSync(join(dir, 'approval-scans.json'), v1('0x3e8'))
    expect(new ScanStore(dir).get(key)!.anchor).toEqual({ block: 1000, hash: blockHash(chainA, 60) })
    writeFileSync(join(dir, 'approval-scans.json'), v1('1e3'))
    expect(new ScanStore(dir).get(key)).toBeNull()
  })

  it('refuses a second scan of the same address while one runs', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((r) => (release = r))
    let entered: () => void = () => {}
    const inside = new Promise<void>((r) => (entered = r))
    const slow = runtime.client.rpcCalls
    runtime.client.rpcCalls = async (network, calls, options) => {
      entered()
      await held
      return slow(network, calls, options)
    }
    const first = service.scan(runtime, 'alpha', OWNER)
    await inside
    await expect(service.scan(runtime, 'alpha', OWNER)).rejects.toThrow(/already running/)
    release()
    expect((await first).scan.scannedTo).toBe(HEAD)
  })
})
