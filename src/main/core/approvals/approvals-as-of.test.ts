import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, encodeFunctionData } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvalsAbi } from '@shared/domain/approvals'
import { makeTx, ME, party } from '@shared/testing/service-samples'
import { SnapshotStore } from '../data/snapshot-store'
import { LogRanges } from '../service/log-range'
import { addr } from '../testing/address'
import { AppError } from '../util/app-error'
import { ApprovalsService, type ApprovalsRuntime } from './approvals-service'
import { ScanStore } from './scan-store'

const TOKEN = '0x00000000000000000000000000000000000000aa'
const SPENDER = '0x00000000000000000000000000000000000000bb'
const NOW = Date.parse('2026-11-27T07:33:00Z')

/** Multicall3's aggregate3 answer: each read succeeded with one word. */
const aggregate = (...words: bigint[]): string =>
  encodeAbiParameters(
    [
      {
        type: 'tuple[]',
        components: [
          { name: 'success', type: 'bool' },
          { name: 'returnData', type: 'bytes' },
        ],
      },
    ],
    [words.map((w) => ({ success: true, returnData: encodeAbiParameters([{ type: 'uint256' }], [w]) }))],
  )

describe('the approvals view says as of when, and whether it was served for a failure', () => {
  let dir: string
  let store: SnapshotStore
  let pageTime: number
  let fail: AppError | null
  let service: ApprovalsService
  const runtime: ApprovalsRuntime = {
    profileId: 'p',
    client: {
      logs: new LogRanges(async () => []),
      rpcCalls: async (_network, calls) => {
        if (fail) throw fail
        return calls.map(() => ({ ok: true as const, result: aggregate(5n, 0n, 9n) }))
      },
      unitsFor: (_network, calls) => calls,
    },
    balances: { route: () => 'multicall3', noteProbe: () => {} },
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'approvals-as-of-'))
    store = new SnapshotStore({ root: join(dir, 'snapshots') })
    const approve = makeTx(1, {
      from: party(ME),
      to: party(TOKEN, { name: 'Token', is_contract: true }),
      raw_input: encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [SPENDER, 5n] }),
    })
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 1, items: [approve], nextCursor: null },
    )
    await store.flush()
    pageTime = Math.min(...(await store.catalogue('p')).map((e) => e.stamp))
    fail = null
    service = new ApprovalsService({
      snapshots: store,
      scans: new ScanStore(dir),
      watchlists: () => [],
      billing: () => 'request',
      clock: { now: () => NOW },
    })
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('checked now: from the network, as of the state call', async () => {
    const view = await service.view(runtime, 'alpha', addr(ME))
    expect(view.stateError).toBeNull()
    expect(view).toMatchObject({ source: 'network', fetchedAt: new Date(NOW).toISOString(), staleReason: null })
  })

  it('cache only: from the cache, as of the loaded page it comes from', async () => {
    const view = await service.view(runtime, 'alpha', addr(ME), { cacheOnly: true })
    expect(view.rows).toHaveLength(1)
    expect(view).toMatchObject({ source: 'cache', fetchedAt: new Date(pageTime).toISOString(), staleReason: null })
  })

  it('the service failing, or Work offline on: the rows loaded data tells, served for that failure', async () => {
    const cases: [AppError, string][] = [
      [new AppError('timeout', 'The service did not answer in time.'), 'offline'],
      [new AppError('offline', 'Not answering.'), 'offline'],
      [new AppError('offline-by-choice', 'Work offline is on.'), 'offline-by-choice'],
      [new AppError('quota-exhausted', 'Used up.'), 'quota'],
    ]
    for (const [error, reason] of cases) {
      fail = error
      const view = await service.view(runtime, 'alpha', addr(ME))
      expect(view.rows).toHaveLength(1)
      expect(view).toMatchObject({ source: 'cache', fetchedAt: new Date(pageTime).toISOString(), staleReason: reason })
      expect(view.stateError).toMatch(/could not be checked now/)
    }
    // Anything else is no reason to serve the loaded rows: the failure is the answer.
    fail = new AppError('auth', 'The key was refused.')
    await expect(service.view(runtime, 'alpha', addr(ME))).rejects.toMatchObject({ kind: 'auth' })
  })
})
