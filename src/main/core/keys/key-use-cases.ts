import type { KeyStatus } from '@shared/bridge/contract'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { SettingsStore } from '../profiles/settings-store'
import { safeExcerpt } from '../service/response-errors'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import type { KeyStore } from './key-store'
import type { Redact } from '../util/logger'

/** What the key use cases work on. */
export interface KeyParts {
  readonly settings: SettingsStore
  readonly keys: KeyStore
  runtime(profileId: string): ProfileRuntime
  /** A head the test call learnt, for the height shown (as any eth_blockNumber answer). */
  observeHead(profileId: string, network: string, head: number): void
  /** Text with every registered key replaced. */
  redact: Redact
}

/**
 * A profile's API key: its status, setting and clearing it, and testing it with one request.
 * The profile id only finds this data folder's profile; the keychain entry is the settings'
 * choice (`keyRef`).
 */
export class KeyUseCases {
  readonly #s: KeyParts
  readonly #clock: Pick<Clock, 'now'>

  constructor(parts: KeyParts, clock: Pick<Clock, 'now'>) {
    this.#s = parts
    this.#clock = clock
  }

  async status(profileId: string): Promise<KeyStatus> {
    const status = await this.#s.keys.status(this.#s.settings.keyRef(profileId))
    // The sandbox's key lives for its run only, whatever the keychain can do.
    if (profileId === SANDBOX_PROFILE_ID) return { ...status, storage: status.set ? 'session' : 'none' }
    return status
  }

  async set(profileId: string, key: string, sessionOnly: boolean): Promise<KeyStatus> {
    const ref = this.#s.settings.keyRef(profileId)
    notSandbox(profileId)
    return this.#s.keys.set(ref, key, sessionOnly)
  }

  async clear(profileId: string): Promise<KeyStatus> {
    const ref = this.#s.settings.keyRef(profileId)
    notSandbox(profileId)
    return this.#s.keys.clear(ref)
  }

  /** One eth_blockNumber on the profile's first network: how long it took and the height it told. */
  async test(profileId: string): Promise<{ latencyMs: number; height: string }> {
    const runtime = this.#s.runtime(profileId)
    const profile = await runtime.ready()
    const network = profile.networks[0]?.name
    if (!network)
      throw new AppError('invalid-input', 'This profile has no networks to test against.', { field: 'profileId' })
    const started = this.#clock.now()
    const result = await runtime.client.rpc(network, { method: 'eth_blockNumber', params: [] }, { priority: 'user' })
    const height = parseHexQuantity(result, MAX_SAFE_BIGINT)
    // Redact, then cut: a cut key is no longer recognised as one.
    if (height === null)
      throw new AppError(
        'protocol',
        `eth_blockNumber answered ${safeExcerpt(JSON.stringify(result) ?? 'nothing', this.#s.redact, 40)}, not a block number.`,
      )
    this.#s.observeHead(profileId, network, Number(height))
    return { latencyMs: this.#clock.now() - started, height: height.toString() }
  }
}

function notSandbox(profileId: string): void {
  if (profileId === SANDBOX_PROFILE_ID) {
    throw new AppError(
      'invalid-input',
      "The built-in sandbox's key is managed by Chainscope; it cannot be set or cleared.",
      { field: 'profileId' },
    )
  }
}
