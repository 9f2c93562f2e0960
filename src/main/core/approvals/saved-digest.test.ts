import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { brotliCompressSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import fc from 'fast-check'
import { encodeAbiParameters, encodeFunctionData, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { approvalsAbi, MAX_UINT256 } from '@shared/domain/approvals'
import { addressTopic, APPROVAL_TOPIC } from '@shared/domain/events'
import type { Transaction } from '@shared/domain/service-schemas'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { SnapshotStore } from '../data/snapshot-store'
import { LogRanges } from '../service/log-range'
import { addr } from '../testing/address'
import { eventsFromLogs } from './approval-events'
import { foldApprovals } from './approval-fold'
import { ApprovalsService, type ApprovalsRuntime } from './approvals-service'
import { digestOf, type PageDigest } from './page-digests'
import { DIGEST_TEXT_MAX, fromSaved, approvalsDigester, savedDigestSchema, toSaved } from './saved-digest'
import { ScanStore } from './scan-store'

const TOKENS = ['0x00000000000000000000000000000000000000aa', '0x00000000000000000000000000000000000000ab']
const SPENDERS = ['0x00000000000000000000000000000000000000bb', '0x00000000000000000000000000000000000000bc']
const LOGGED = '0x00000000000000000000000000000000000000ac'

const input = (kind: number, spender: string, amount: bigint): `0x${string}` => {
  const s = spender as `0x${string}`
  if (kind === 1) return encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [s, amount] })
  if (kind === 2) return encodeFunctionData({ abi: approvalsAbi, functionName: 'increaseAllowance', args: [s, amount] })
  if (kind === 3)
    return encodeFunctionData({ abi: approvalsAbi, functionName: 'setApprovalForAll', args: [s, amount > 0n] })
  return '0x'
}

/** A transaction of the owner's: a plain one or an approval call, its parties named or not, with a transfer or not. */
const txArb = fc
  .record({
    kind: fc.integer({ min: 0, max: 3 }),
    token: fc.constantFrom(...TOKENS),
    spender: fc.constantFrom(...SPENDERS),
    amount: fc.oneof(fc.constant(MAX_UINT256), fc.bigInt({ min: 0n, max: 10n ** 30n })),
    name: fc.option(fc.constantFrom('Router', 'Desk 1', ''), { nil: null }),
    tags: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.record({ label: fc.string({ maxLength: 8 }) })), {
      maxLength: 2,
    }),
    contract: fc.option(fc.boolean(), { nil: undefined }),
    transfer: fc.constantFrom(null, 'ERC-20', 'ERC-721'),
    failed: fc.boolean(),
  })
  .map((t) => (i: number): Transaction => {
    const to = party(t.kind === 0 ? OTHER : t.token, {
      name: t.name,
      public_tags: t.tags,
      is_contract: t.contract,
      is_verified: t.contract ?? null,
    })
    const token = { address: t.token, type: t.transfer ?? 'ERC-20', decimals: '6', symbol: 'T', name: 'Token' }
    return makeTx(i, {
      from: party(ME),
      to,
      raw_input: input(t.kind, t.spender, t.amount),
      result: t.failed ? 'execution reverted' : 'success',
      position: i % 7,
      token_transfers: t.transfer
        ? [{ from: party(ME), to: party(OTHER), token, total: { value: '1', decimals: '6' }, type: 'token_transfer' }]
        : null,
    })
  })

describe('approvals digests kept beside the pages', () => {
  let dir: string
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'approval-digests-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('a digest kept as JSON and read back equals the one made from the page', async () => {
    // A page names each party once: their order in it is not kept (see fromSaved).
    const byHash = (d: PageDigest) => ({ ...d, parties: d.parties.toSorted((a, b) => a.hash.localeCompare(b.hash)) })
    fc.assert(
      fc.property(fc.array(txArb, { maxLength: 8 }), (page) => {
        const digest = digestOf(
          page.map((make, i) => make(i)),
          ME,
        )
        const kept = savedDigestSchema.parse(
          JSON.parse(
            JSON.stringify(
              approvalsDigester.of(
                page.map((make, i) => make(i)),
                ME,
              ),
            ),
          ),
        )
        expect(byHash(fromSaved(kept))).toEqual(byHash(digest))
        expect(toSaved(fromSaved(kept))).toEqual(kept)
      }),
      { numRuns: 100 },
    )
  })

  describe('in the Approvals view', () => {
    const OWNER = addr(ME)
    let reads: string[]
    const warn = vi.fn()
    const log = { info: () => {}, warn, error: () => {} }
    const runtime: ApprovalsRuntime = {
      profileId: 'p',
      client: {
        logs: new LogRanges(async () => []),
        // The state call answers nothing readable: rows say what the calls and logs tell.
        rpcCalls: async (_network, calls) => calls.map(() => ({ ok: false as const, code: -32000, message: 'no' })),
        unitsFor: (_network, calls) => calls,
      },
      balances: { route: () => 'multicall3', noteProbe: () => {} },
    }
    /** A store on the folder (a start of the app); `digests: false` is a build that made none. */
    const storeOf = (digests = true) =>
      new SnapshotStore({ root: join(dir, 'snapshots'), log, digester: digests ? approvalsDigester : undefined })
    /** A new service over a new store (a restart), counting the pages it reads. */
    const service = (store = storeOf()) => {
      const readEntry = store.readEntry.bind(store)
      store.readEntry = async (e) => {
        reads.push(basename(e.path))
        return readEntry(e)
      }
      return new ApprovalsService({
        snapshots: store,
        scans: new ScanStore(dir),
        watchlists: () => [],
        billing: () => 'request',
      })
    }
    const approve = (i: number, token: string, spender: string, amount: bigint) =>
      makeTx(i, {
        from: party(ME),
        to: party(token, { name: `Token ${i}`, is_contract: true }),
        raw_input: input(1, spender, amount),
      })
    const first = [approve(1, TOKENS[0]!, SPENDERS[0]!, MAX_UINT256), makeTx(2), makeTx(3)]
    const second = [
      approve(4, TOKENS[1]!, SPENDERS[1]!, 5n),
      makeTx(5, { to: party(SPENDERS[0]!, { name: 'Router' }) }),
    ]
    const write = async (store: SnapshotStore, cursor: string | null, items: Transaction[]) => {
      await store.writePage(
        { profileId: 'p', network: 'alpha', address: ME, cursor: cursor },
        { fetchedAt: 1, items, nextCursor: null },
      )
      await store.flush()
    }
    const digestsDir = () => join(dir, 'snapshots', 'p', 'alpha', ME, 'digests')
    const rowsOf = (v: {
      rows: { token: { address: string }; spender: { address: string }; allowance: string | null }[]
    }) => v.rows.map((r) => [r.token.address, r.spender.address, r.allowance])

    beforeEach(async () => {
      reads = []
      warn.mockClear()
      // A scan found a grant by log in a loaded transaction: its time comes from the page's digest.
      const logged = {
        address: LOGGED,
        topics: [APPROVAL_TOPIC, addressTopic(ME), addressTopic(SPENDERS[0]!)],
        data: encodeAbiParameters([{ type: 'uint256' }], [7n]),
        blockNumber: toHex(997),
        logIndex: '0x0',
        transactionHash: makeTx(3).hash,
      }
      await new ScanStore(dir).set(ScanStore.key('p', 'alpha', ME), {
        scannedTo: 999,
        anchor: { block: 999, hash: `0x${'ab'.repeat(32)}` },
        approvals: foldApprovals(eventsFromLogs([logged], ME), new Map()),
        skippedLogs: 0,
      })
    })

    it('reads no page even the first time: each was digested as it was written', async () => {
      const store = storeOf()
      await write(store, null, first)
      await write(store, 'c2', second)
      const view = await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual([])
      expect(rowsOf(view)).toEqual(
        expect.arrayContaining([
          [TOKENS[0], SPENDERS[0], MAX_UINT256.toString()],
          [TOKENS[1], SPENDERS[1], '5'],
          [LOGGED, SPENDERS[0], '7'],
        ]),
      )
      const logged = view.rows.find((r) => r.token.address === LOGGED)!
      expect(logged.granted?.timestamp).toBe(makeTx(3).timestamp)
      expect(logged.spender.name).toBe('Router')
      expect(view.transactionsRead).toBe(5)
    })

    it('cache only: the same rows from loaded data alone, with no state call, and says so', async () => {
      const store = storeOf()
      await write(store, null, first)
      await write(store, 'c2', second)
      const live = await service().view(runtime, 'alpha', OWNER)
      let asked = 0
      const counting: ApprovalsRuntime = {
        ...runtime,
        client: { ...runtime.client, rpcCalls: async (...args) => (asked++, runtime.client.rpcCalls(...args)) },
      }
      const kept = await service().view(counting, 'alpha', OWNER, { cacheOnly: true })
      expect(asked).toBe(0)
      expect(kept.cost).toEqual({ requests: 0, units: 0 })
      expect(rowsOf(kept)).toEqual(rowsOf(live))
      expect(kept.stateError).toMatch(/not checked now \(no request was sent\)/)
    })

    it('digests the pages an older build wrote once, the same as when written, and keeps the digests', async () => {
      const digested = storeOf()
      await write(digested, null, first)
      await write(digested, 'c2', second)
      const expected = await service().view(runtime, 'alpha', OWNER)
      rmSync(digestsDir(), { recursive: true })

      const store = storeOf(false)
      const cold = await service(store).view(runtime, 'alpha', OWNER)
      expect(reads.sort()).toEqual([`${SnapshotStore.pageName('c2')}.br`, 'tx-first.json.br'].sort())
      expect(cold.rows).toEqual(expected.rows)
      await store.flush()
      reads = []
      expect((await service().view(runtime, 'alpha', OWNER)).rows).toEqual(expected.rows)
      expect(reads).toEqual([])
    })

    it('follows a page rewritten with more transactions, and forgets one gone from the cache', async () => {
      const store = storeOf()
      await write(store, null, first)
      await write(store, 'c2', second)
      const s = service()
      await s.view(runtime, 'alpha', OWNER)
      await write(store, 'c2', [...second, approve(6, TOKENS[1]!, SPENDERS[0]!, 9n)])
      const changed = await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual([])
      expect(
        changed.rows.find((r) => r.token.address === TOKENS[1] && r.spender.address === SPENDERS[0]),
      ).toMatchObject({
        allowance: '9',
      })
      await store.removeProfile('p')
      await write(store, null, first)
      const fewer = await service().view(runtime, 'alpha', OWNER)
      expect(fewer.transactionsRead).toBe(3)
      expect(reads).toEqual([])
    })

    it('a damaged digest is removed, said in the log, made again from its page and kept', async () => {
      const store = storeOf()
      await write(store, null, first)
      await write(store, 'c2', second)
      const expected = await service().view(runtime, 'alpha', OWNER)
      writeFileSync(join(digestsDir(), 'tx-first.json.br'), brotliCompressSync('{"version":1,"page":{"stamp":"torn'))
      reads = []
      const restarted = storeOf()
      expect((await service(restarted).view(runtime, 'alpha', OWNER)).rows).toEqual(expected.rows)
      expect(reads).toEqual(['tx-first.json.br'])
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/digests.tx-first\.json\.br is damaged; removed/))
      await restarted.flush()
      reads = []
      expect((await service().view(runtime, 'alpha', OWNER)).rows).toEqual(expected.rows)
      expect(reads).toEqual([])
    })

    it('a party name longer than any digest text is kept cut: the digest written is one its reader takes, each opening', async () => {
      const long = 'N'.repeat(DIGEST_TEXT_MAX + 50_000)
      const page = [approve(1, TOKENS[0]!, SPENDERS[0]!, 5n), makeTx(2, { to: party(SPENDERS[0]!, { name: long }) })]
      const store = storeOf()
      await write(store, null, page)
      for (let opening = 0; opening < 2; opening++) {
        const view = await service().view(runtime, 'alpha', OWNER)
        expect(reads).toEqual([])
        expect(warn).not.toHaveBeenCalled()
        expect(view.rows.find((r) => r.spender.address === SPENDERS[0])!.spender.name).toBe(
          long.slice(0, DIGEST_TEXT_MAX),
        )
      }
    })

    it("goes with its page: removed with the profile's snapshots", async () => {
      const store = storeOf()
      await write(store, null, first)
      expect(readdirSync(digestsDir())).toEqual(['tx-first.json.br'])
      await store.removeProfile('p')
      expect(existsSync(digestsDir())).toBe(false)
    })
  })
})
