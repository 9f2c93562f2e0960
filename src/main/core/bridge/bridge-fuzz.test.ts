import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import type { BridgeCallName } from '@shared/bridge/contract'
import { ERROR_KINDS, type BridgeError, type BridgeResult } from '@shared/bridge/errors'
import { createCore, type Core } from '../app-core'
import type { Logger } from '../util/logger'
import { testCoreOptions } from '../testing/core-options'

/**
 * Property tests: whatever arrives at the bridge (IPC and HTTP carry any JSON), every call
 * answers plain data — a validation error naming the field for malformed input, a typed
 * error for well-formed nonsense — and never throws or reports an internal failure.
 */
const A = '0x52908400098527886E0F7030069857D2E4169EE7'
/** One valid input per call; mutations of these reach deep into each schema. */
const EXAMPLES: { [K in BridgeCallName]: Record<string, unknown> } = {
  'app.info': {},
  'app.setVisible': { visible: false },
  'app.notices': {},
  'sandbox.status': {},
  'sandbox.start': {},
  'sandbox.stop': {},
  'sandbox.reset': { confirm: true },
  'profiles.list': {},
  'profiles.save': {
    name: 'P',
    baseUrl: 'http://127.0.0.1:1',
    rpcUrl: 'http://127.0.0.1:1/rpc',
    networks: [
      { name: 'one', label: 'One' },
      { name: 'two', label: 'Two' },
    ],
  },
  'profiles.remove': { id: 'nope' },
  'profiles.activate': { id: 'nope' },
  'profiles.setLimits': { id: 'nope', limits: { ratePerSecond: 1, burst: 1, quotaPerDay: 1 } },
  'key.status': { profileId: 'nope' },
  'key.set': { profileId: 'nope', key: 'abcdefgh123' },
  'key.clear': { profileId: 'nope' },
  'key.test': { profileId: 'nope' },
  'data.balances': { network: 'one', address: A },
  'data.transactions': { network: 'one', address: A, cursor: null },
  'rpc.call': { network: 'one', method: 'eth_blockNumber', params: [] },
  'rpc.batch': { network: 'one', calls: [{ method: 'eth_blockNumber', params: [] }] },
  'work.cancel': { scope: 'view' },
  'limiter.state': {},
  'height.get': {},
  'connection.get': {},
  'connection.setWorkOffline': { on: false },
  'settings.get': {},
  'settings.set': { allowRemoteIcons: true },
  'watchlists.list': {},
  'watchlists.create': { name: 'L' },
  'watchlists.rename': { id: 'nope', name: 'L' },
  'watchlists.delete': { id: 'nope' },
  'watchlists.addEntry': { listId: 'nope', entry: { address: A, network: 'one' } },
  'watchlists.addEntries': { listId: 'nope', entries: [{ address: A, network: 'one' }] },
  'watchlists.updateEntry': { listId: 'nope', entryId: 'nope', patch: { label: 'x' } },
  'watchlists.removeEntry': { listId: 'nope', entryId: 'nope' },
  'watchlists.moveEntry': { fromListId: 'nope', toListId: 'nope', entryId: 'nope' },
  'watchlists.import': { format: 'csv', text: 'address,network\n' },
  'watchlists.export': { format: 'json' },
  'notes.list': {},
  'notes.set': { kind: 'address', network: 'one', key: A, text: 'note' },
  'cases.list': {},
  'cases.create': { name: 'Case', first: { address: A, network: 'one' } },
  'cases.rename': { id: 'none', name: 'Case 2' },
  'cases.delete': { id: 'none' },
  'cases.addAddress': { id: 'none', address: A, network: 'one' },
  'cases.addAddresses': { id: 'none', addresses: [{ address: A, network: 'one' }] },
  'cases.updateAddress': { id: 'none', address: A, network: 'one', label: 'x' },
  'cases.removeAddress': { id: 'none', address: A, network: 'one' },
  'cases.setNotes': { id: 'none', notes: 'n' },
  'cases.setGraph': {
    id: 'none',
    graph: {
      version: 1,
      expanded: [],
      hopLimit: 2,
      filters: { asset: null, minAmount: null, from: null, to: null, direction: 'both' },
      selected: null,
    },
  },
  'cases.export': { id: 'none' },
  'cases.import': { text: '{}' },
  'labels.list': {},
  'labels.preview': { text: `address,label\n${A},x\n`, network: 'one' },
  'labels.import': { text: `address,label\n${A},x\n`, network: 'one', replace: [] },
  'labels.export': {},
  'search.query': { query: '0x5290' },
  'analysis.networks': { address: A },
  'watch.estimate': { listId: 'nope' },
  'watch.check': { listId: 'nope' },
  'watch.status': {},
  'watch.markSeen': { listId: 'nope' },
  'watch.settings': {},
  'watch.setSettings': { periodic: false },
  'approvals.view': { network: 'one', address: A },
  'approvals.scan': { network: 'one', address: A },
  'approvals.stopScan': { network: 'one', address: A },
  'report.pdfAvailable': {},
  'report.savePdf': { html: '<!doctype html><p>r</p>', filename: 'report.pdf' },
  'files.check': { id: 'file-0001', name: 'report.html', part: 0, text: '<p>r</p>', last: true },
  'labels.set': { address: A, network: 'one', label: 'Hot wallet', note: '', seen: null },
  'labels.remove': { address: A, network: 'one', seen: { label: 'x', note: '' } },
  'entities.cost': {
    network: 'one',
    read: 'receipt',
    id: '0xabababababababababababababababababababababababababababababababab',
  },
  'entities.address': { network: 'one', address: A },
  'entities.proxy': { network: 'one', address: A },
  'entities.receipt': { network: 'one', hash: '0xabababababababababababababababababababababababababababababababab' },
  'entities.internal': { network: 'one', hash: '0xabababababababababababababababababababababababababababababababab' },
  'entities.block': { network: 'one', number: 1 },
  'entities.traceCost': {
    network: 'one',
    hashes: ['0xabababababababababababababababababababababababababababababababab'],
  },
  'entities.traceMany': {
    network: 'one',
    hashes: ['0xabababababababababababababababababababababababababababababababab'],
  },
  'entities.functions': { standard: 'ERC-20' },
  'entities.readContract': { network: 'one', address: A, standard: 'Ownable', fn: 'owner', args: [] },
}
const NAMES = Object.keys(bridgeCalls) as BridgeCallName[]

let dir: string
let core: Core
const logged: string[] = []
const log: Logger = { info: () => {}, warn: () => {}, error: (m) => logged.push(m) }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bridge-fuzz-'))
  // No keychain (testCoreOptions'), so keys are session-only and nothing touches the OS.
  core = await createCore(testCoreOptions(dir, { log, tuning: { client: { maxAttempts: 1, timeoutMs: 2000 } } }))
})
afterAll(async () => {
  await core.dispose()
  rmSync(dir, { recursive: true, force: true })
})

function expectPlainError(result: BridgeResult<unknown>): asserts result is { ok: false; error: BridgeError } {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(ERROR_KINDS).toContain(result.error.kind)
  expect(result.error.kind).not.toBe('internal')
  expect(typeof result.error.message).toBe('string')
  expect(result.error.message.length).toBeGreaterThan(0)
}

/** Replaces the value at one path of `base` with `value`. */
function mutate(base: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value
  const [head, ...rest] = path
  const copy = (Array.isArray(base) ? [...(base as unknown[])] : { ...(base as object) }) as Record<
    string | number,
    unknown
  >
  copy[head!] = mutate((base as Record<string | number, unknown>)?.[head!], rest, value)
  return copy
}

function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix]
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, Array.isArray(value) ? Number(k) : k]))
  }
  return out
}

describe('bridge under random input', () => {
  it('accepts every example (the examples are valid, so the mutations below mean something)', () => {
    for (const name of NAMES) expect(bridgeCalls[name].safeParse(EXAMPLES[name]).success, name).toBe(true)
  })

  it.each(NAMES)('%s answers a validation error for any malformed input', async (name) => {
    const schema = bridgeCalls[name]
    const example = EXAMPLES[name]
    const anyInput = fc.anything({
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
    })
    const mutated = fc
      .tuple(fc.constantFrom(...paths(example)), fc.oneof(anyInput, fc.string(), fc.integer(), fc.constant(undefined)))
      .map(([p, v]) => mutate(example, p, v))
    const extraKey = fc
      .tuple(fc.string({ minLength: 1 }), fc.jsonValue())
      .map(([k, v]) => ({ ...example, [`x${k}`]: v }))
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyInput, mutated, extraKey), async (input) => {
        fc.pre(!schema.safeParse(input ?? {}).success)
        const result = await core.bridge.dispatch(name, input)
        expectPlainError(result)
        expect(result.error.kind).toBe('invalid-input')
        expect(result.error.field).toEqual(expect.any(String))
      }),
      { numRuns: 150 },
    )
  })

  it('answers unknown call names with a validation error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (name) => {
        fc.pre(typeof name !== 'string' || !(name in bridgeCalls))
        const result = await core.bridge.dispatch(name, {})
        expectPlainError(result)
        expect(result.error).toMatchObject({ kind: 'invalid-input', field: 'name' })
      }),
      { numRuns: 200 },
    )
  })

  it('answers well-formed nonsense (unknown ids, bad checksums, foreign cursors, junk imports) with typed errors', async () => {
    // A profile that points at a closed port, with a session key, so data calls get as far
    // as they can.
    const saved = await core.bridge.dispatch('profiles.save', EXAMPLES['profiles.save'])
    expect(saved.ok).toBe(true)
    const id = (saved as { value: { id: string } }).value.id
    expect(
      (await core.bridge.dispatch('key.set', { profileId: id, key: 'session-key-1234', sessionOnly: true })).ok,
    ).toBe(true)
    expect((await core.bridge.dispatch('profiles.activate', { id })).ok).toBe(true)
    const mixed = fc.stringMatching(/^0x[0-9a-fA-F]{40}$/)
    const hex40 = fc.oneof(
      mixed,
      mixed.map((a) => a.toLowerCase()),
    )
    const kinds = new Set<string>()
    const cases = fc.oneof(
      fc.record({
        name: fc.constant('data.transactions' as const),
        input: fc.record({
          network: fc.constantFrom('one', 'zzz'),
          address: hex40,
          cursor: fc.oneof(fc.string({ maxLength: 200 }), fc.base64String()),
        }),
      }),
      fc.record({
        name: fc.constant('data.balances' as const),
        input: fc.record({ network: fc.constantFrom('one', 'two', 'nope'), address: hex40 }),
      }),
      fc.record({
        name: fc.constant('watchlists.import' as const),
        input: fc.record({ format: fc.constantFrom('json', 'csv'), text: fc.oneof(fc.string(), fc.json()) }),
      }),
      fc.record({
        name: fc.constant('watchlists.addEntry' as const),
        input: fc.record({
          listId: fc.string({ minLength: 1, maxLength: 80 }),
          entry: fc.record({ address: hex40, network: fc.constant('one') }),
        }),
      }),
      fc.record({
        name: fc.constant('profiles.activate' as const),
        input: fc.record({ id: fc.string({ minLength: 1, maxLength: 80 }) }),
      }),
      fc.record({
        name: fc.constant('key.status' as const),
        input: fc.record({ profileId: fc.string({ minLength: 1, maxLength: 80 }) }),
      }),
      fc.record({
        name: fc.constant('watchlists.export' as const),
        input: fc.record({ format: fc.constant('csv'), listId: fc.string({ minLength: 1, maxLength: 80 }) }),
      }),
    )
    await fc.assert(
      fc.asyncProperty(cases, async ({ name, input }) => {
        const result = await core.bridge.dispatch(name, input)
        if (result.ok) return // a random input can be valid (e.g. an import of a valid CSV)
        expectPlainError(result)
        kinds.add(result.error.kind)
      }),
      { numRuns: 300 },
    )
    // The nonsense reached every layer: validation, lookups and the (closed) network.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['invalid-input', 'not-found', 'offline']))
    expect(logged).toEqual([])
  }, 120_000)
})
