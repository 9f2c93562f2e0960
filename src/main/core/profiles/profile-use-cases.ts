import type { ProfileView } from '@shared/bridge/contract'
import type { Billing } from '@shared/domain/billing'
import { SANDBOX_PROFILE_ID, type Limits, type ProfileInput } from '@shared/domain/profile'
import type { SnapshotStore } from '../data/snapshot-store'
import type { KeyStore } from '../keys/key-store'
import type { QuotaFile } from '../limiter/quota-store'
import type { SandboxManager } from '../sandbox/sandbox-manager'
import type { ProfileRuntime } from './profile-runtime'
import type { SettingsStore } from './settings-store'

/** What the profile use cases work on: the stores, the per-profile runtimes and the change report. */
export interface ProfileParts {
  readonly settings: SettingsStore
  readonly keys: KeyStore
  readonly quota: QuotaFile
  readonly snapshots: SnapshotStore
  readonly sandbox: SandboxManager
  runtime(profileId: string): ProfileRuntime
  /** Ends the profile's runtime and drops the provider limits it learnt. */
  forgetRuntime(profileId: string): void
  /** Tells the renderer and follows the active profile's networks. */
  profilesChanged(): void
  profileViews(): ProfileView[]
}

/**
 * Saving, removing, activating and limiting a profile: each touches the settings and then
 * everything that holds a part of that profile (its runtime, key, quota count, snapshots).
 */
export class ProfileUseCases {
  readonly #s: ProfileParts

  constructor(parts: ProfileParts) {
    this.#s = parts
  }

  async save(input: ProfileInput): Promise<ProfileView> {
    const s = this.#s
    // The entry the key is in now: re-pointing the profile names another (keyRef).
    const before = input.id && s.settings.find(input.id) ? s.settings.keyRef(input.id) : null
    const { profile, addressesChanged, originsChanged } = await s.settings.save(input)
    // What the runtime kept and learnt of the old address is another service's: its memory cache,
    // the batch sizes and log-range caps it learnt (saved under the old endpoint: the new one is
    // learnt afresh), and the saved snapshots (one under its freshness window would be served as
    // fresh, and offline as the profile's own data). A new runtime is made for the new address.
    if (addressesChanged) {
      s.forgetRuntime(profile.id)
      await s.snapshots.removeProfile(profile.id)
    }
    s.runtime(profile.id).limiters.setLimits(profile.limits)
    // A key is bound to the origins it was given for: a re-pointed profile asks for it again,
    // so no caller of the bridge can send the stored key to a host of its choosing.
    if (originsChanged && before) await s.keys.clear(before)
    s.profilesChanged()
    return this.#view(profile.id)
  }

  /** Removes the profile with its runtime, learnt limits, quota count and snapshots; then its key. */
  async remove(id: string): Promise<null> {
    const s = this.#s
    s.settings.get(id)
    const key = s.settings.keyRef(id)
    await s.settings.remove(id)
    s.forgetRuntime(id)
    s.quota.remove(id)
    await s.snapshots.removeProfile(id)
    s.profilesChanged()
    // The profile is gone either way; a keychain that refuses is reported, not hidden.
    await s.keys.clear(key)
    return null
  }

  async activate(id: string): Promise<ProfileView> {
    const s = this.#s
    await s.settings.activate(id)
    s.profilesChanged()
    // Nobody waits for the start: its progress and failure arrive as sandbox status events. A
    // stopped sandbox stays stopped (Settings starts it): its status is said again instead.
    if (id === SANDBOX_PROFILE_ID) {
      if (s.sandbox.held) s.sandbox.resend()
      else void s.sandbox.ensure().catch(() => {})
    }
    return this.#view(id)
  }

  async setLimits(id: string, limits: Limits, billing?: Billing): Promise<ProfileView> {
    const s = this.#s
    const profile = await s.settings.setLimits(id, limits, billing)
    s.runtime(id).limiters.setLimits(profile.limits)
    s.profilesChanged()
    return this.#view(id)
  }

  #view(id: string): ProfileView {
    // The settings just answered for this id, so the list holds it.
    return this.#s.profileViews().find((p) => p.id === id)!
  }
}
