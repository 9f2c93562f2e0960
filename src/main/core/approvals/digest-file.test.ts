import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import fc from 'fast-check'
import { encodeAbiParameters, encodeFunctionData, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { approvalsAbi, MAX_UINT256 } from '@shared/domain/approvals'
import { addressTopic, APPROVAL_TOPIC } from '@shared/domain/events'
import type { Transaction } from '@shared/domain/service-schemas'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import type { SnapshotEntry } from '../data/snapshot-store'
import { LogRanges } from '../service/log-range'
import { addr } from '../testing/address'
import { eventsFromLogs } from './approval-events'
import { foldApprovals } from './approval-fold'
import { ApprovalsService, type ApprovalsRuntime } from './approvals-service'
import { DigestFiles } from './digest-file'
import { digestOf, type PageDigest } from './page-digests'
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

const entry = (name: string, stamp = 1, size = 100): SnapshotEntry => ({
  path: join('/cache', 'p', 'alpha', ME, name),
  network: 'alpha',
  address: ME,
  kind: 'page',
  stamp,
  size,
})

describe('saved approvals digests', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'approval-digests-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('a digest saved and read back after a restart equals one made from the page', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(txArb, { maxLength: 6 }), { minLength: 1, maxLength: 4 }), async (pages) => {
        const profile = `p${run++}`
        let n = 0
        const digests = pages.map((page) =>
          digestOf(
            page.map((make) => make(n++)),
            ME,
          ),
        )
        const shelf = new DigestFiles(dir).shelf(profile, 'alpha', ME)
        digests.forEach((d, i) => {
          expect(shelf.find(entry(`tx-${i}.json.br`))).toBeNull()
          shelf.use(entry(`tx-${i}.json.br`), d)
        })
        shelf.settle()
        // A restart: a new reader of the same folder.
        const again = new DigestFiles(dir).shelf(profile, 'alpha', ME)
        // A page names each party once: their order in it is not kept (see fromSaved).
        const byHash = (d: PageDigest | null) =>
          d && { ...d, parties: d.parties.toSorted((a, b) => a.hash.localeCompare(b.hash)) }
        digests.forEach((d, i) => expect(byHash(again.find(entry(`tx-${i}.json.br`)))).toEqual(byHash(d)))
        // Another version of a page's file is not trusted.
        expect(again.find(entry('tx-0.json.br', 2))).toBeNull()
        expect(again.find(entry('tx-0.json.br', 1, 101))).toBeNull()
      }),
      { numRuns: 25 },
    )
  })

  describe('in the Approvals view', () => {
    const OWNER = addr(ME)
    let pages: Map<string, Transaction[]>
    let entries: SnapshotEntry[]
    let reads: string[]
    const warn = vi.fn()
    const runtime: ApprovalsRuntime = {
      profileId: 'p',
      client: {
        logs: new LogRanges(async () => []),
        // The state call answers nothing readable: rows say what the calls and logs tell.
        rpcCalls: async (_network, calls) => calls.map(() => ({ ok: false as const, code: -32000, message: 'no' })),
      },
      balances: { route: () => 'multicall3', noteProbe: () => {} },
    }
    const service = () =>
      new ApprovalsService({
        snapshots: {
          catalogue: async () => entries,
          readEntry: async (e) => {
            reads.push(basename(e.path))
            const items = pages.get(e.path)
            return items ? { fetchedAt: 0, items, nextCursor: null } : null
          },
        },
        scans: new ScanStore(dir),
        watchlists: () => [],
        billing: () => 'request',
        digestDir: join(dir, 'approval-digests'),
        log: { info: () => {}, warn, error: () => {} },
      })
    const approve = (i: number, token: string, spender: string, amount: bigint) =>
      makeTx(i, {
        from: party(ME),
        to: party(token, { name: `Token ${i}`, is_contract: true }),
        raw_input: input(1, spender, amount),
      })
    const put = (name: string, txs: Transaction[], stamp = 1) => {
      const e = entry(name, stamp, 100 + txs.length)
      entries = [...entries.filter((x) => x.path !== e.path), e]
      pages.set(e.path, txs)
    }
    const fileOf = () => join(dir, 'approval-digests', 'p', 'alpha', `${ME}.json`)

    beforeEach(() => {
      pages = new Map()
      entries = []
      reads = []
      warn.mockClear()
      put('tx-first.json.br', [approve(1, TOKENS[0]!, SPENDERS[0]!, MAX_UINT256), makeTx(2), makeTx(3)])
      put('tx-b.json.br', [
        approve(4, TOKENS[1]!, SPENDERS[1]!, 5n),
        makeTx(5, { to: party(SPENDERS[0]!, { name: 'Router' }) }),
      ])
      // A scan found a grant by log in a loaded transaction: its time comes from the page's digest.
      const log = {
        address: LOGGED,
        topics: [APPROVAL_TOPIC, addressTopic(ME), addressTopic(SPENDERS[0]!)],
        data: encodeAbiParameters([{ type: 'uint256' }], [7n]),
        blockNumber: toHex(997),
        logIndex: '0x0',
        transactionHash: makeTx(3).hash,
      }
      new ScanStore(dir).set(ScanStore.key('p', 'alpha', ME), {
        scannedTo: 999,
        anchor: { block: 999, hash: `0x${'ab'.repeat(32)}` },
        approvals: foldApprovals(eventsFromLogs([log], ME), new Map()),
      })
    })

    it('after a restart gives the same rows as digesting the pages, reading none of them', async () => {
      const fresh = await service().view(runtime, 'alpha', OWNER)
      expect(reads.sort()).toEqual(['tx-b.json.br', 'tx-first.json.br'])
      expect(fresh.rows.map((r) => [r.token.address, r.spender.address])).toEqual(
        expect.arrayContaining([
          [TOKENS[0], SPENDERS[0]],
          [TOKENS[1], SPENDERS[1]],
          [LOGGED, SPENDERS[0]],
        ]),
      )
      const logged = fresh.rows.find((r) => r.token.address === LOGGED)!
      expect(logged.granted?.timestamp).toBe(makeTx(3).timestamp)
      expect(logged.spender.name).toBe('Router')
      reads = []
      const restarted = await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual([])
      expect(restarted.rows).toEqual(fresh.rows)
      expect(restarted.transactionsRead).toBe(5)
    })

    it('digests again a page whose file changed, and forgets one gone from the cache', async () => {
      await service().view(runtime, 'alpha', OWNER)
      put('tx-b.json.br', [...pages.get(entry('tx-b.json.br').path)!, approve(6, TOKENS[1]!, SPENDERS[0]!, 9n)], 2)
      reads = []
      const changed = await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual(['tx-b.json.br'])
      expect(
        changed.rows.find((r) => r.token.address === TOKENS[1] && r.spender.address === SPENDERS[0]),
      ).toMatchObject({ allowance: '9' })
      entries = entries.filter((e) => basename(e.path) !== 'tx-first.json.br')
      reads = []
      const fewer = await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual([])
      expect(fewer.transactionsRead).toBe(3)
      // The page put back as it was is read again: its digest left the file with it.
      put('tx-first.json.br', pages.get(entry('tx-first.json.br').path)!)
      reads = []
      await service().view(runtime, 'alpha', OWNER)
      expect(reads).toEqual(['tx-first.json.br'])
    })

    it('sets a damaged file aside, says so in the log and rebuilds it from the pages', async () => {
      const fresh = await service().view(runtime, 'alpha', OWNER)
      writeFileSync(fileOf(), '{"version":1,"pages":{"tx-first.json.br":{"stamp":"torn')
      reads = []
      const rebuilt = await service().view(runtime, 'alpha', OWNER)
      expect(rebuilt.rows).toEqual(fresh.rows)
      expect(reads.sort()).toEqual(['tx-b.json.br', 'tx-first.json.br'])
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/approvals digest file was damaged/))
      expect(readdirSync(join(fileOf(), '..')).some((n) => n.startsWith(`${ME}.json.damaged-`))).toBe(true)
      reads = []
      expect((await service().view(runtime, 'alpha', OWNER)).rows).toEqual(fresh.rows)
      expect(reads).toEqual([])
    })

    it("removes a profile's digests with its snapshots", async () => {
      const s = service()
      await s.view(runtime, 'alpha', OWNER)
      expect(existsSync(fileOf())).toBe(true)
      s.forgetDigests('p')
      expect(existsSync(join(dir, 'approval-digests', 'p'))).toBe(false)
    })
  })
})
