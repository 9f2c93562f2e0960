import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import { createCore, type Core } from '../app-core'
import { testCoreOptions } from '../testing/core-options'

const A = '0x52908400098527886E0F7030069857D2E4169EE7'
const a = A.toLowerCase()
let dir: string
let core: Core
const events: unknown[] = []

async function start(): Promise<Core> {
  const c = await createCore(testCoreOptions(dir))
  c.bridge.subscribe((event, payload) => event === 'labels.changed' && events.push(payload))
  return c
}
const call = <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeResult<unknown>> =>
  core.bridge.dispatch(name, input)
const found = async (query: string): Promise<unknown[]> => {
  const r = await call('search.query', { query })
  if (!r.ok) throw new Error(r.error.message)
  return (r.value as { hits: { kind: string }[] }).hits.filter((h) => h.kind === 'label')
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'label-edit-'))
  events.length = 0
  core = await start()
})
afterEach(async () => {
  await core.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('labels edited one by one through the bridge', () => {
  it('adds, changes and removes a label, each saved at once and found by search', async () => {
    expect(
      await call('labels.set', { address: A, network: 'alpha', label: ' Cold wallet ', note: 'ledger', seen: null }),
    ).toMatchObject({ ok: true, value: { address: a, network: 'alpha', label: 'Cold wallet', note: 'ledger' } })
    expect(await found('cold')).toEqual([
      expect.objectContaining({
        kind: 'label',
        network: 'alpha',
        address: a,
        title: 'Cold wallet (0x52908400…169ee7)',
      }),
    ])
    expect(await found('ledger')).toHaveLength(1)
    expect(events).toHaveLength(1)

    const seen = { label: 'Cold wallet', note: 'ledger' }
    expect((await call('labels.set', { address: A, network: 'alpha', label: 'Vault', note: '', seen })).ok).toBe(true)
    expect(await found('cold')).toEqual([])
    expect(await found('vault')).toHaveLength(1)

    // Kept across a restart, in the file.
    await core.dispose()
    core = await start()
    expect(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')).labels).toEqual([
      expect.objectContaining({ address: a, network: 'alpha', label: 'Vault', note: '' }),
    ])
    expect(await found('vault')).toHaveLength(1)

    expect(await call('labels.remove', { address: A, network: 'alpha', seen: { label: 'Vault', note: '' } })).toEqual({
      ok: true,
      value: null,
    })
    expect(await found('vault')).toEqual([])
    expect(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')).labels).toEqual([])
  })

  it('never overwrites a label changed since it was shown, and says what it is now', async () => {
    await call('labels.set', { address: A, network: 'alpha', label: 'Alice', note: '', seen: null })
    const before = readFileSync(join(dir, 'labels.json'), 'utf8')
    // Shown as "no label", then saved: the label added meanwhile is not replaced.
    const stale = await call('labels.set', { address: A, network: 'alpha', label: 'Bob', note: '', seen: null })
    expect(stale).toMatchObject({ ok: false, error: { kind: 'conflict' } })
    expect(!stale.ok && stale.error.message).toMatch(/it is now “Alice”\)\. Nothing was saved/)
    const gone = await call('labels.remove', { address: A, network: 'alpha', seen: { label: 'Alicia', note: '' } })
    expect(gone).toMatchObject({ ok: false, error: { kind: 'conflict' } })
    // The same address on another network is another label.
    expect((await call('labels.set', { address: A, network: 'beta', label: 'Bob', note: '', seen: null })).ok).toBe(
      true,
    )
    expect(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')).labels).toEqual([
      expect.objectContaining({ network: 'alpha', label: 'Alice' }),
      expect.objectContaining({ network: 'beta', label: 'Bob' }),
    ])
    expect(JSON.parse(before).labels).toHaveLength(1)
  })

  it('refuses bad input by name: a wrong checksum, nothing to save, a label too long', async () => {
    const bad = await call('labels.set', {
      address: A.replace('E0F', 'e0F'),
      network: 'alpha',
      label: 'x',
      note: '',
      seen: null,
    })
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'address' } })
    const empty = await call('labels.set', { address: A, network: 'alpha', label: '  ', note: '', seen: null })
    expect(empty).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: expect.stringMatching(/Write a label or a note/) },
    })
    const long = await call('labels.set', { address: A, network: 'alpha', label: 'x'.repeat(81), note: '', seen: null })
    expect(long).toMatchObject({ ok: false, error: { kind: 'invalid-input' } })
    expect(events).toEqual([])
  })
})
