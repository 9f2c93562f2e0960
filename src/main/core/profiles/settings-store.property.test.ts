import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { AppError } from '../util/app-error'
import { SettingsStore } from './settings-store'

/**
 * Whatever profile and settings calls the bridge lets through, and whatever the app learns by
 * itself (the sandbox's networks, a service's balances spelling), the settings file written
 * loads back equal to what the store answers.
 */
/** Mostly what a form sends, sometimes what only a hostile caller would. */
const name = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 70 }) },
)
const url = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'https://data.example',
      'https://data.example/api//',
      'http://127.0.0.1:8545/',
      'http://[::1]:1/rpc',
    ),
  },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true }) },
)
const networkName = fc.oneof(fc.constantFrom('alpha', 'beta'), fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/))
const network = fc.record({ name: networkName, label: name })
const limits = fc.record({
  ratePerSecond: fc.double({ min: 0, max: 10_001, noNaN: true }),
  burst: fc.integer({ min: 0, max: 10_001 }),
  quotaPerDay: fc.integer({ min: 0, max: 100_000_001 }),
  scope: fc.option(fc.constantFrom('key', 'network', 'endpoint', 'network-endpoint'), { nil: undefined }),
})
const pick = fc.nat(10)
const op = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('save' as const),
      existing: fc.option(pick, { nil: undefined, freq: 2 }),
      input: fc.record({
        name,
        baseUrl: url,
        rpcUrl: url,
        networks: fc.tuple(network, network),
        limits: fc.option(limits, { nil: undefined }),
      }),
    }),
  },
  fc.record({ op: fc.constant('remove' as const), profile: pick }),
  fc.record({ op: fc.constant('activate' as const), profile: pick }),
  fc.record({ op: fc.constant('setLimits' as const), profile: pick, limits }),
  fc.record({ op: fc.constant('settings' as const), allowRemoteIcons: fc.boolean() }),
  fc.record({ op: fc.constant('spelling' as const), profile: pick, spelling: fc.constantFrom('balance', 'balances') }),
  fc.record({
    op: fc.constant('sandbox' as const),
    networks: fc.option(fc.uniqueArray(networkName, { maxLength: 8 }), { nil: null }),
  }),
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

async function apply(store: SettingsStore, o: Op): Promise<void> {
  const ids = store.list().map((p) => p.id)
  const idOf = (i: number): string => ids[i % ids.length]!
  switch (o.op) {
    case 'save': {
      const p = bridgeCalls['profiles.save'].safeParse({
        ...o.input,
        ...(o.existing === undefined ? {} : { id: idOf(o.existing) }),
      })
      if (p.success) await store.save(p.data)
      return
    }
    case 'remove':
      await store.remove(idOf(o.profile))
      return
    case 'activate':
      await store.activate(idOf(o.profile))
      return
    case 'setLimits': {
      const p = bridgeCalls['profiles.setLimits'].safeParse({ id: idOf(o.profile), limits: o.limits })
      if (p.success) await store.setLimits(p.data.id, p.data.limits)
      return
    }
    case 'settings':
      await store.setSettings({ allowRemoteIcons: o.allowRemoteIcons })
      return
    case 'spelling':
      store.spelling(idOf(o.profile)).set(o.spelling)
      return
    case 'sandbox':
      store.setSandboxRuntime({ baseUrl: 'http://127.0.0.1:1', rpcUrl: 'http://127.0.0.1:2' }, o.networks)
  }
}

/** What a restart must show again (the sandbox's addresses are memory only, by design). */
function view(store: SettingsStore): unknown {
  return {
    profiles: store.list().map((p) => ({
      ...p,
      baseUrl: p.kind === 'sandbox' ? '' : p.baseUrl,
      rpcUrl: p.kind === 'sandbox' ? '' : p.rpcUrl,
    })),
    active: store.activeProfileId,
    settings: store.settings,
    spelling: store.list().map((p) => store.spelling(p.id).get()),
  }
}

describe('SettingsStore property', () => {
  it('whatever calls are made, valid or refused, memory and the file agree after each, and the file loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 20 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'settings-prop-'))
        try {
          const store = new SettingsStore(dir)
          for (const o of ops) {
            try {
              await apply(store, o)
            } catch (error) {
              if (!(error instanceof AppError)) throw error
            }
            await store.settled()
            expect(view(new SettingsStore(dir))).toEqual(view(store))
          }
          const again = new SettingsStore(dir)
          expect(again.notice).toBeNull()
          expect(view(again)).toEqual(view(store))
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 },
    )
  })
})
