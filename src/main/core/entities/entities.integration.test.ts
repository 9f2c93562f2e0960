import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { concat, decodeFunctionData, parseAbi, parseGwei, toHex, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { erc20Abi } from 'viem'
import { EIP1967_SLOTS } from './address-kind'
import { listFunctions, readContract } from './read-contract'
import { estimateTraces, internalOf, traceMany } from './trace-many'
import { SnapshotStore } from '../data/snapshot-store'
import type { RunningSandbox } from '../sandbox/sandbox-launcher'
import { admin, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { systemClock } from '../util/clock'
import { EntityService, type EntityRuntime } from './entity-service'
import { sessionTracesMemory } from './trace-support'

/**
 * The entity reads against real sandboxes (real anvil chains): A answers geth's callTracer and
 * bills per call, B answers Erigon's trace_transaction and bills per call plus one per batch,
 * C refuses both. Every read costs what the sandbox counted; the router's coin splits, the
 * seed's own included (its chain keeps every block's state: docs/decisions/seeded-traces.md),
 * are traced to exactly the shares they sent, alike in both dialects; C's refusal is said in words.
 */
const COMMON = ['--block-time', '0', '--rate', '1000', '--burst', '1000', '--admin']
const SPLIT_ABI = parseAbi(['function splitEther(address[] recipients) payable'])
const TO = '0x00000000000000000000000000000000000c0ffe'

let a: RunningSandbox
let b: RunningSandbox
let c: RunningSandbox
let dir = ''
/** The seed's Router, whale and deployer on alpha (the sandbox's demo addresses). */
let ROUTER = ''
let WHALE = ''
let DEPLOYER = ''
let snapshots: SnapshotStore
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'entities-'))
  snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  ;[a, b, c] = await Promise.all([
    tsxSandboxLauncher([...COMMON, '--billing', 'call']).launch({}),
    tsxSandboxLauncher([...COMMON, '--billing', 'call-plus-batch', '--traces', 'trace_transaction']).launch({}),
    tsxSandboxLauncher([...COMMON, '--traces', 'none']).launch({}),
  ])
  const demo = a.info.demo_addresses.alpha!
  ROUTER = demo.contract!.toLowerCase()
  WHALE = demo.whale!.toLowerCase()
  DEPLOYER = demo.deployer!.toLowerCase()
}, 600_000)
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), c?.stop()])
  await snapshots?.flush()
  rmSync(dir, { recursive: true, force: true })
})

function setup(sb: RunningSandbox, billing: 'request' | 'call' | 'call-plus-batch') {
  const { client, limiter } = rpcClientFixture(sb.info.base_url, { billing, key: sb.info.api_key })
  const rt: EntityRuntime = { profileId: `p-${billing}`, client, limiters: { state: () => limiter.state() } }
  const traces = sessionTracesMemory()
  const service = new EntityService({ snapshots, headOf: () => null, traces: () => traces, clock: systemClock })
  return { client, rt, service, traces }
}

/** What the sandbox billed the key for `work`, and what the work said it cost. */
async function billed<T extends { cost: { units: number } }>(sb: RunningSandbox, work: () => Promise<T>) {
  const before = await admin(sb.info).stats(sb.info.api_key)
  const out = await work()
  const after = await admin(sb.info).stats(sb.info.api_key)
  return { out, counted: after.units - before.units }
}

/** A coin split through the seed's Router, mined now (a loaded chain traces only what it mines). */
async function split(sb: RunningSandbox, amount: bigint): Promise<{ hash: string; block: number }> {
  return admin(sb.info).transfer({ network: 'alpha', to: TO, kind: 'router-split', amount: amount.toString() })
}

/** The shares the Router must have sent, from the transaction's own input and value (not its trace). */
async function sharesOf(sb: RunningSandbox, hash: string, recipients = 3) {
  const { client } = setup(sb, 'request')
  const tx = (await client.rpc(
    'alpha',
    { method: 'eth_getTransactionByHash', params: [hash] },
    { priority: 'user' },
  )) as {
    input: Hex
    value: string
    to: string
  }
  const { args } = decodeFunctionData({ abi: SPLIT_ABI, data: tx.input })
  const to = args[0].map((r) => r.toLowerCase())
  expect([tx.to.toLowerCase(), to.length]).toEqual([ROUTER, recipients])
  const share = (BigInt(tx.value) / BigInt(recipients)).toString()
  return to.map((r) => ({ from: ROUTER, to: r, value: share, kind: 'call', depth: 1 }))
}

/** A seeded coin split, from the router's first page of the service's transactions. */
async function seededSplit(sb: RunningSandbox): Promise<Transaction> {
  const { client } = setup(sb, 'request')
  const page = await client.data.transactions('alpha', ROUTER, null, { priority: 'user' })
  // The seed's splits are the whale's; the ones mined by these tests come from a background account.
  const whale = WHALE
  const tx = page.items.find(
    (t) => t.method === 'splitEther' && t.result === 'success' && t.from.hash.toLowerCase() === whale,
  )
  if (!tx) throw new Error("no seeded splitEther on the router's first page")
  return tx
}

/**
 * Deploys, from a fresh funded key, a contract whose creation code writes `implementation` and
 * `admin` into their EIP-1967 slots (then leaves one STOP byte as its code): the slots a proxy
 * keeps, set as a real deployment sets them. Mined by the admin transfer that follows.
 */
async function deploySlots(sb: RunningSandbox, implementation: string, adminOf: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey())
  await admin(sb.info).transfer({ network: 'alpha', to: account.address, amount: (10n ** 17n).toString() })
  const store = (value: string, slot: string): Hex => concat(['0x73', value as Hex, '0x7f', slot as Hex, '0x55'])
  const data = concat([
    store(implementation, EIP1967_SLOTS.implementation),
    store(adminOf, EIP1967_SLOTS.admin),
    '0x60016000f3', // PUSH1 1 PUSH1 0 RETURN memory[0..1]: one zero byte (STOP) as the code
  ] as Hex[])
  const raw = await account.signTransaction({
    chainId: 7001,
    type: 'eip1559',
    nonce: 0,
    gas: 200_000n,
    maxFeePerGas: parseGwei('200'),
    maxPriorityFeePerGas: parseGwei('1'),
    data,
  })
  const { client } = setup(sb, 'request')
  const hash = (await client.rpc(
    'alpha',
    { method: 'eth_sendRawTransaction', params: [raw] },
    { priority: 'user' },
  )) as string
  await admin(sb.info).transfer({ network: 'alpha', to: TO })
  const receipt = (await client.rpc(
    'alpha',
    { method: 'eth_getTransactionReceipt', params: [hash] },
    { priority: 'user' },
  )) as {
    contractAddress: string
    status: string
  }
  expect(receipt.status).toBe(toHex(1))
  return receipt.contractAddress.toLowerCase()
}

describe('entity reads against the sandbox', () => {
  it("traces the router's coin split to exactly the shares it sent, alike in both dialects, each costing what was billed", async () => {
    const A = setup(a, 'call')
    const B = setup(b, 'call-plus-batch')
    const [ta, tb] = await Promise.all([split(a, 3_000_000_000_000_001n), split(b, 9_000_000n)])
    const viaGeth = await billed(a, () => A.service.internalTransfers(A.rt, 'alpha', ta.hash))
    const viaErigon = await billed(b, () => B.service.internalTransfers(B.rt, 'alpha', tb.hash))
    expect(viaGeth.out).toMatchObject({ dialect: 'callTracer', refused: null, source: 'network', calls: 4 })
    expect(viaErigon.out).toMatchObject({ dialect: 'trace_transaction', refused: null, calls: 4 })
    expect(viaGeth.out.transfers).toEqual(await sharesOf(a, ta.hash))
    expect(viaErigon.out.transfers).toEqual(await sharesOf(b, tb.hash))
    expect(viaGeth.out.transfers[0]!.to).toBe(TO)
    // B was asked debug_traceTransaction first (refused), then trace_transaction: both billed.
    expect([viaGeth.out.cost.units, viaErigon.out.cost.units]).toEqual([viaGeth.counted, viaErigon.counted])
    expect(viaErigon.counted).toBe(2)
    expect(B.traces.load('alpha')?.dialect).toBe('trace_transaction')
    const again = await billed(b, () => B.service.internalTransfers(B.rt, 'alpha', tb.hash, true))
    expect([again.out.cost.units, again.counted]).toEqual([1, 1])
  })

  it('traces the transactions chosen for an address, seeded ones too, costed first, listing the one that cannot be traced', async () => {
    const A = setup(a, 'call')
    const [s1, s2] = [await split(a, 6000n), await split(a, 9000n)]
    const seeded = await seededSplit(a)
    const unknown = `0x${'ab'.repeat(32)}`
    const hashes = [s1.hash, seeded.hash, unknown, s2.hash]
    expect(await estimateTraces(A.service, A.rt, 'alpha', hashes)).toMatchObject({ requests: 4, upTo: 5 })
    const before = await admin(a.info).stats(a.info.api_key)
    const run = await traceMany(A.service, A.rt, 'alpha', hashes)
    const after = await admin(a.info).stats(a.info.api_key)
    expect(run.traced.map((v) => [v.hash, v.transfers.length])).toEqual([
      [s1.hash, 3],
      [seeded.hash, 2],
      [s2.hash, 3],
    ])
    expect(run.failed).toEqual([
      { hash: unknown, message: expect.stringContaining('the node does not seem to know this transaction') },
    ])
    expect([run.refused, run.stopped]).toEqual([null, null])
    expect(after.units - before.units).toBe(4)
    // Resumable: what was traced costs nothing again.
    expect(await estimateTraces(A.service, A.rt, 'alpha', hashes)).toMatchObject({ requests: 1, upTo: 1 })
    // For the flows and counterparties: what the address received inside the traced ones, marked
    // internal, read from the kept traces at no cost; the untraced one named.
    const mark = (hash: string) => (t: { to: string }) => ({ ...t, hash, internal: true })
    const expected = [
      ...(await sharesOf(a, s1.hash)).filter((t) => t.to === TO).map(mark(s1.hash)),
      ...(await sharesOf(a, s2.hash)).filter((t) => t.to === TO).map(mark(s2.hash)),
    ]
    const looked = await billed(a, async () => ({
      ...(await internalOf(A.service, A.rt, { network: 'alpha', address: TO, hashes })),
      cost: { units: 0 },
    }))
    expect(looked.counted).toBe(0)
    expect(looked.out.transfers).toEqual(expected)
    expect([looked.out.traced, looked.out.untraced]).toEqual([[s1.hash, seeded.hash, s2.hash], [unknown]])
    const router = await internalOf(A.service, A.rt, { network: 'alpha', address: ROUTER, hashes })
    expect(router.transfers.map((t) => t.hash)).toEqual([
      s1.hash,
      s1.hash,
      s1.hash,
      seeded.hash,
      seeded.hash,
      s2.hash,
      s2.hash,
      s2.hash,
    ])
  })

  it("traces the seed's own router split, on a chain loaded from the shipped state, to exactly the shares it sent", async () => {
    const tx = await seededSplit(a)
    const A = setup(a, 'call')
    const { out, counted } = await billed(a, () => A.service.internalTransfers(A.rt, 'alpha', tx.hash))
    expect(out).toMatchObject({ dialect: 'callTracer', refused: null, calls: 3 })
    expect(out.transfers).toEqual(await sharesOf(a, tx.hash, 2))
    expect(out.transfers.map((t) => t.value)).toEqual(['1000000000000000000', '1000000000000000000'])
    expect([out.cost.units, counted]).toEqual([1, 1])
    // In the other dialect too (the chain is the same seed).
    const B = setup(b, 'call-plus-batch')
    const erigon = await B.service.internalTransfers(B.rt, 'alpha', tx.hash)
    expect(erigon.transfers).toEqual(out.transfers)
  })

  it('reads the receipt, the block (header, then full objects) and the address kind, each costing what was billed', async () => {
    const tx = await seededSplit(a)
    const A = setup(a, 'call')
    const receipt = await billed(a, () => A.service.receipt(A.rt, 'alpha', tx.hash))
    expect(receipt.out).toMatchObject({ hash: tx.hash, status: 'success', to: ROUTER, block: tx.block })
    expect(receipt.out.gasUsed).toBe(tx.gas_used)
    const block = await billed(a, () => A.service.block(A.rt, 'alpha', tx.block!))
    expect(block.out.transactions).toContain(tx.hash)
    expect(block.out.full).toBeNull()
    const full = await billed(a, () => A.service.block(A.rt, 'alpha', tx.block!, { full: true }))
    expect(full.out.full?.find((t) => t.hash === tx.hash)).toEqual({
      hash: tx.hash,
      from: tx.from.hash.toLowerCase(),
      to: ROUTER,
      value: tx.value,
    })
    const kind = await billed(a, () => A.service.addressKind(A.rt, 'alpha', ROUTER))
    expect(kind.out).toMatchObject({ kind: 'contract', from: 'rpc', final: true })
    expect(kind.out.codeSize).toBeGreaterThan(100)
    const account = await billed(a, () => A.service.addressKind(A.rt, 'alpha', WHALE))
    expect(account.out).toMatchObject({ kind: 'account', codeSize: 0 })
    const proxy = await billed(a, () => A.service.proxySlots(A.rt, 'alpha', ROUTER))
    expect(proxy.out).toMatchObject({ implementation: null, admin: null, beacon: null })
    for (const read of [receipt, block, full, kind, account, proxy]) expect(read.out.cost.units).toBe(read.counted)
    expect([receipt.counted, block.counted, full.counted, kind.counted, proxy.counted]).toEqual([1, 1, 1, 1, 3])
    const cost = await A.service.cost(A.rt, 'alpha', 'address', ROUTER)
    expect(cost).toMatchObject({ requests: 0, cached: true })
    const cached = await billed(a, () => A.service.addressKind(A.rt, 'alpha', ROUTER))
    expect([cached.out.source, cached.counted]).toEqual(['cache', 0])
  })

  it('reads the EIP-1967 slots of a proxy deployed on the chain, costing what was billed', async () => {
    const impl = `0x${'1f'.repeat(20)}`
    const owner = `0x${'2e'.repeat(20)}`
    const proxy = await deploySlots(a, impl, owner)
    const A = setup(a, 'call')
    const read = await billed(a, () => A.service.proxySlots(A.rt, 'alpha', proxy))
    expect(read.out).toMatchObject({ implementation: impl, admin: owner, beacon: null })
    expect([read.out.cost.units, read.counted]).toEqual([3, 3])
    const kind = await A.service.addressKind(A.rt, 'alpha', proxy)
    expect(kind).toMatchObject({ kind: 'contract', codeSize: 1 })
  })

  it("reads the seed's EIP-1967 proxy: its implementation is the seed's ERC-20, costing what was billed", async () => {
    const demo = a.info.demo_addresses.alpha!
    const A = setup(a, 'call')
    const read = await billed(a, () => A.service.proxySlots(A.rt, 'alpha', demo.proxy!.toLowerCase()))
    expect(read.out).toMatchObject({ implementation: demo.token_erc20!.toLowerCase(), admin: null, beacon: null })
    expect([read.out.cost.units, read.counted]).toEqual([3, 3])
    const kind = await billed(a, () => A.service.addressKind(A.rt, 'alpha', demo.proxy!.toLowerCase()))
    expect(kind.out).toMatchObject({ kind: 'contract' })
    expect([kind.out.cost.units, kind.counted]).toEqual([1, 1])
  })

  it('reads view functions of a seeded token, by a well-known interface and by a pasted ABI, each one call as billed', async () => {
    const demo = a.info.demo_addresses.alpha!
    const token = demo.token_erc20_6!.toLowerCase()
    const A = setup(a, 'call')
    const decimals = await billed(a, () =>
      readContract(
        A.rt,
        { network: 'alpha', address: token, source: { standard: 'ERC-20' }, fn: 'decimals', args: [] },
        systemClock,
      ),
    )
    expect(decimals.out.outputs).toEqual([{ name: '', type: 'uint8', value: '6' }])
    const abi = JSON.stringify(erc20Abi)
    const signature = listFunctions({ abi }).find((f) => f.name === 'balanceOf')!.signature
    const balance = await billed(a, () =>
      readContract(
        A.rt,
        { network: 'alpha', address: token, source: { abi }, fn: signature, args: [WHALE] },
        systemClock,
      ),
    )
    expect(balance.out.outputs[0]!.value).toMatch(/^[1-9]\d*$/)
    for (const read of [decimals, balance]) expect([read.out.cost.units, read.counted]).toEqual([1, 1])
  })

  it.each([
    ["the Router, created by the seed's deployer", 'contract', () => DEPLOYER],
    ['the Registry, created by the seeded whale', 'registry', () => WHALE],
  ])('takes the kind and creator of %s from its loaded pages at no cost', async (_what, role, creator) => {
    const { client, rt, service } = setup(a, 'call')
    const address = a.info.demo_addresses.alpha![role]!.toLowerCase()
    let params: Record<string, string | number | boolean> | null = null
    let n = 0
    do {
      const page = await client.data.transactions('alpha', address, params, { priority: 'user' })
      const cursor = params ? `page-${n}` : null
      await snapshots.writePage(
        { profileId: rt.profileId, network: 'alpha', address: address, cursor: cursor },
        {
          ...page,
          nextCursor: null,
          fetchedAt: Date.now(),
        },
      )
      params = page.next_page_params as typeof params
      n += 1
    } while (params !== null && n < 40)
    await snapshots.flush()
    expect(await service.cost(rt, 'alpha', 'address', address)).toMatchObject({ requests: 0 })
    const { out, counted } = await billed(a, () => service.addressKind(rt, 'alpha', address))
    expect(counted).toBe(0)
    expect(out).toMatchObject({ kind: 'contract', from: 'service', creator: creator() })
    expect(out.creationTx).toMatch(/^0x[0-9a-f]{64}$/)
  })

  it('says in words that a provider refusing both trace methods cannot show internal transfers, and remembers it', async () => {
    const [tx, other] = await Promise.all([split(c, 3000n), split(c, 6000n)])
    const C = setup(c, 'request')
    const first = await billed(c, () => C.service.internalTransfers(C.rt, 'alpha', tx.hash))
    expect(first.out).toMatchObject({ dialect: null, transfers: [] })
    expect(first.out.refused).toContain("alpha's provider refuses call traces")
    expect(first.out.refused).toContain('not supported on your plan')
    expect([first.out.cost.units, first.counted]).toEqual([2, 2])
    expect(await C.service.cost(C.rt, 'alpha', 'trace', other.hash)).toMatchObject({ requests: 0, upTo: 0 })
    const second = await billed(c, () => C.service.internalTransfers(C.rt, 'alpha', other.hash))
    expect([second.out.refused, second.counted]).toEqual([first.out.refused, 0])
    const run = await traceMany(C.service, C.rt, 'alpha', [other.hash, tx.hash])
    expect(run).toMatchObject({ traced: [], refused: first.out.refused, cost: { units: 0 } })
  })
})
