import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { Settings } from '@shared/bridge/contract'
import {
  networkCoinSchema,
  SANDBOX_PROFILE_ID,
  SPEC_LIMITS,
  type Limits,
  type NetworkConfig,
  type Profile,
  type ProfileInput,
  keySafeUrl,
  originOf,
} from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import type { KeyRef } from '../keys/key-store'
import type { BalanceSpelling } from '../service/service-types'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { DiskReports, DiskWriteError } from '../util/disk-error'
import {
  empty,
  fileSchema,
  labelFor,
  newKeyId,
  publicProfile,
  type SettingsFile,
  type StoredProfile,
} from './settings-file'

import { isBilling, SAFE_BILLING, SANDBOX_BILLING, type Billing } from '@shared/domain/billing'

/**
 * Profiles and app settings in `<dataDir>/settings.json` (versioned, atomic, with backup).
 * The built-in sandbox profile is always listed; its addresses are known only while its
 * sandbox runs (the core fills them in), its network names are remembered from the last run.
 */
const WHAT = 'settings'
type Change = (data: SettingsFile) => SettingsFile

export class SettingsStore {
  readonly #file: VersionedFile<SettingsFile>
  readonly notice: string | null
  #sandboxUrls = { baseUrl: '', rpcUrl: '' }
  readonly #disk: DiskReports
  /** What the running sandbox says it counts (its ready line); its default until it says otherwise. */
  #sandboxBilling: Billing = SANDBOX_BILLING
  /**
   * What the app learnt by itself (key ids, the sandbox's networks, a service's balances
   * spelling; each change the same whenever applied) and the file has not taken yet: kept for the session, on top of the file, and
   * saved with the next save that succeeds (docs/decisions/store-writes.md).
   */
  #learnt: Change[] = []
  /** The saves of what was learnt, settled either way. */
  #remembering: Promise<unknown> = Promise.resolve()

  /** `disk`: where a failed write that nobody waits for is told (the app's notices). */
  constructor(dataDir: string, disk: DiskReports = new DiskReports(() => undefined), faults: FileFaults = {}) {
    this.#disk = disk
    this.#file = new VersionedFile<SettingsFile>({
      path: join(dataDir, 'settings.json'),
      version: 1,
      label: 'settings',
      empty,
      migrate: (raw) => fileSchema.parse(raw),
      ...faults,
    })
    this.notice = this.#file.load().notice
    this.#giveKeyIds()
  }

  /** The file's content with what was learnt on top. */
  get #data(): SettingsFile {
    return this.#learnt.reduce((d, f) => f(d), this.#file.data)
  }

  /**
   * Profiles saved before keychain entries were named per data folder get their own id now;
   * their key is still where that version put it (the entry named by the profile id), read
   * once from there (`KeyRef.legacy`). Not written (a read-only folder): new ids each start, and
   * the key is read from its old entry each time, so nothing is lost.
   */
  #giveKeyIds(): void {
    const ids = new Map(this.#data.profiles.filter((p) => !p.keyId).map((p) => [p.id, newKeyId()]))
    if (ids.size === 0) return
    // The ids are made once: a learnt change is applied again on each read until it is saved.
    this.#remember((d) => ({
      ...d,
      profiles: d.profiles.map((p) =>
        p.keyId || !ids.has(p.id) ? p : { ...p, keyId: ids.get(p.id)!, legacyKey: true as const },
      ),
    }))
  }

  /**
   * The keychain entry of a profile of this data folder: its random `keyId` (never chosen by a
   * caller: `save` makes it) and the origins its key is bound to. Another data folder's profile
   * with the same id has another `keyId`, so it neither reads nor clears this entry.
   */
  keyRef(profileId: string): KeyRef {
    if (profileId === SANDBOX_PROFILE_ID) return { profileId, account: SANDBOX_PROFILE_ID }
    const p = this.#data.profiles.find((q) => q.id === profileId)
    if (!p?.keyId) throw new AppError('not-found', `There is no profile "${profileId}".`, { field: 'profileId' })
    const account = `${p.keyId} ${originOf(p.baseUrl)} ${originOf(p.rpcUrl)}`
    if (!p.legacyKey) return { profileId, account }
    return {
      profileId,
      account,
      legacy: {
        account: profileId,
        // Not saved: the old entry is read once more next start, which is all it costs.
        done: () => {
          const saving = this.#legacyKeySettled(p.keyId!).catch(() => undefined)
          this.#track(saving)
          return saving
        },
      },
    }
  }

  async #legacyKeySettled(keyId: string): Promise<void> {
    await this.#save((d) => ({
      ...d,
      profiles: d.profiles.map((p) => {
        if (p.keyId !== keyId || !p.legacyKey) return p
        const { legacyKey: _settled, ...rest } = p
        return rest
      }),
    }))
  }

  /**
   * A change the user asked for, computed from what is current when its turn comes: if the disk
   * refuses it, nothing changes and they are told why. What was learnt is saved with it.
   */
  async #save(change: Change): Promise<void> {
    try {
      await this.#write(change)
    } catch (error) {
      if (!(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The settings could not be saved (${error.problem}); nothing was changed.`)
    }
  }

  /** `change` on what is current with what was learnt, written; what was learnt is then saved. */
  async #write(change: Change): Promise<void> {
    const learnt = [...this.#learnt]
    await this.#file.update((current) => change(learnt.reduce((d, f) => f(d), current)))
    this.#learnt = this.#learnt.filter((f) => !learnt.includes(f))
    this.#disk.saved(WHAT)
  }

  /**
   * What the app learns by itself (the sandbox's networks, a service's balances spelling),
   * saved while answering something else: a disk that refuses it must not fail that answer,
   * so it is kept for the session and told once. One the file would refuse is not kept.
   */
  #remember(change: Change): void {
    this.#learnt.push(change)
    const saved = this.#write((d) => d).catch((error: unknown) => {
      if (error instanceof DiskWriteError) {
        this.#disk.failed(WHAT, error, 'what it learned about the services is kept until it closes.')
        return
      }
      this.#learnt = this.#learnt.filter((f) => f !== change)
    })
    this.#track(saved)
  }

  /** A save nobody waits for, that `settled` waits for. */
  #track(saving: Promise<unknown>): void {
    this.#remembering = Promise.all([this.#remembering, saving])
  }

  /** Every save of what was learnt is decided, each within the save deadline (tests, a clean close). */
  async settled(): Promise<void> {
    await this.#remembering
  }

  get activeProfileId(): string | null {
    const id = this.#data.activeProfileId
    return id && this.find(id) ? id : null
  }

  sandboxProfile(): Profile {
    return {
      id: SANDBOX_PROFILE_ID,
      name: 'Sandbox',
      kind: 'sandbox',
      baseUrl: this.#sandboxUrls.baseUrl,
      rpcUrl: this.#sandboxUrls.rpcUrl,
      networks: this.#data.sandbox.networks,
      limits: this.#data.sandbox.limits ?? SPEC_LIMITS,
      billing: this.#sandboxBilling,
    }
  }

  list(): Profile[] {
    return [
      this.sandboxProfile(),
      ...this.#data.profiles.map((p) => ({ ...publicProfile(p), kind: 'service' as const, networks: [...p.networks] })),
    ]
  }

  find(id: string): Profile | undefined {
    return this.list().find((p) => p.id === id)
  }

  get(id: string): Profile {
    const profile = this.find(id)
    if (!profile) throw new AppError('not-found', `There is no profile "${id}".`, { field: 'id' })
    return profile
  }

  /**
   * Creates a profile, or updates the one with `input.id`. `originsChanged`: the data API's or
   * the RPC endpoint's origin moved, so the stored key must be forgotten (it is bound to the
   * origins it was given for).
   */
  async save(input: ProfileInput): Promise<{ profile: Profile; addressesChanged: boolean; originsChanged: boolean }> {
    if (input.id === SANDBOX_PROFILE_ID) {
      throw new AppError(
        'invalid-input',
        'The built-in sandbox profile cannot be edited; create a new profile for a service.',
        { field: 'id' },
      )
    }
    for (const field of ['baseUrl', 'rpcUrl'] as const) {
      if (!keySafeUrl(input[field])) {
        throw new AppError(
          'invalid-input',
          `The ${field === 'baseUrl' ? 'data API' : 'RPC'} address must use https:// (plain http:// only to this computer: 127.0.0.1, localhost or [::1]); the API key travels with every request.`,
          { field },
        )
      }
    }
    const id = input.id ?? this.#newId(input.name)
    let addressesChanged = false
    let originsChanged = false
    await this.#save((d) => {
      const existing = input.id ? d.profiles.find((p) => p.id === input.id) : undefined
      const stored: StoredProfile = {
        id,
        // A new profile gets a new entry, whatever id the caller gave it; an edit keeps its own.
        keyId: existing?.keyId ?? newKeyId(),
        ...(existing?.legacyKey ? { legacyKey: true as const } : {}),
        name: input.name,
        baseUrl: input.baseUrl.replace(/\/+$/, ''),
        rpcUrl: input.rpcUrl.replace(/\/+$/, ''),
        networks: input.networks,
        limits: input.limits ?? existing?.limits ?? SPEC_LIMITS,
        billing: input.billing ?? existing?.billing ?? SAFE_BILLING,
      }
      const profiles = existing ? d.profiles.map((p) => (p.id === id ? stored : p)) : [...d.profiles, stored]
      addressesChanged =
        !!existing &&
        (existing.baseUrl !== stored.baseUrl ||
          existing.rpcUrl !== stored.rpcUrl ||
          JSON.stringify(existing.networks) !== JSON.stringify(stored.networks))
      originsChanged =
        !!existing &&
        (originOf(existing.baseUrl) !== originOf(stored.baseUrl) ||
          originOf(existing.rpcUrl) !== originOf(stored.rpcUrl))
      const spelling = { ...d.balanceSpelling }
      if (addressesChanged) delete spelling[id]
      return { ...d, profiles, balanceSpelling: spelling }
    })
    return { profile: this.get(id), addressesChanged, originsChanged }
  }

  async remove(id: string): Promise<void> {
    if (id === SANDBOX_PROFILE_ID)
      throw new AppError('invalid-input', 'The built-in sandbox profile cannot be removed.', { field: 'id' })
    await this.#save((d) => {
      if (!d.profiles.some((p) => p.id === id))
        throw new AppError('not-found', `There is no profile "${id}".`, { field: 'id' })
      const spelling = { ...d.balanceSpelling }
      delete spelling[id]
      return {
        ...d,
        profiles: d.profiles.filter((p) => p.id !== id),
        activeProfileId: d.activeProfileId === id ? null : d.activeProfileId,
        balanceSpelling: spelling,
      }
    })
  }

  async activate(id: string): Promise<Profile> {
    const profile = this.get(id)
    await this.#save((d) => (d.activeProfileId === id ? d : { ...d, activeProfileId: id }))
    return profile
  }

  /** The limits, and for a service profile how it counts; the sandbox's billing is its own mode's. */
  async setLimits(id: string, limits: Limits, billing?: Billing): Promise<Profile> {
    this.get(id)
    await this.#save((d) =>
      id === SANDBOX_PROFILE_ID
        ? { ...d, sandbox: { ...d.sandbox, limits } }
        : {
            ...d,
            profiles: d.profiles.map((p) => (p.id === id ? { ...p, limits, billing: billing ?? p.billing } : p)),
          },
    )
    return this.get(id)
  }

  /**
   * The running sandbox's addresses and billing (memory only), network names and coins
   * (remembered). `coins`: its ready line's coin per network, read here; a network it does not
   * name keeps no coin ("coin", docs/decisions/coin-as-asset.md).
   */
  setSandboxRuntime(
    urls: { baseUrl: string; rpcUrl: string },
    networks: string[] | null,
    billing?: unknown,
    coins?: unknown,
  ): void {
    this.#sandboxUrls = urls
    this.#sandboxBilling = isBilling(billing) ? billing : SANDBOX_BILLING
    if (networks) {
      const coinOf = (name: string): Pick<NetworkConfig, 'coin'> => {
        const given =
          coins !== null && typeof coins === 'object' ? Object.entries(coins).find(([n]) => n === name) : null
        const parsed = given ? networkCoinSchema.safeParse(given[1]) : null
        return parsed?.success ? { coin: parsed.data } : {}
      }
      const configs: NetworkConfig[] = networks.map((name) => ({ name, label: labelFor(name), ...coinOf(name) }))
      if (JSON.stringify(configs) !== JSON.stringify(this.#data.sandbox.networks)) {
        this.#remember((d) => ({ ...d, sandbox: { ...d.sandbox, networks: configs } }))
      }
    }
  }

  spelling(profileId: string): { get(): BalanceSpelling | null; set(s: BalanceSpelling): void } {
    return {
      // Own keys only: a profile id such as "constructor" must not find Object's.
      get: () => (Object.hasOwn(this.#data.balanceSpelling, profileId) ? this.#data.balanceSpelling[profileId]! : null),
      set: (s) => {
        if (this.#data.balanceSpelling[profileId] === s || !this.find(profileId)) return
        this.#remember((d) => ({ ...d, balanceSpelling: { ...d.balanceSpelling, [profileId]: s } }))
      },
    }
  }

  get settings(): Settings {
    return { ...this.#data.settings }
  }

  async setSettings(patch: Partial<Settings>): Promise<Settings> {
    await this.#save((d) => ({ ...d, settings: { ...d.settings, ...patch } }))
    return this.settings
  }

  /** The "Work offline" switch: while on, nothing is sent to the service. */
  get workOffline(): boolean {
    return this.#data.workOffline
  }

  /** Saved before it takes effect: a refused save leaves the switch as it was (docs/decisions/store-writes.md). */
  async setWorkOffline(on: boolean): Promise<void> {
    // Decided on the data the save sees, not on memory a pending save has not changed yet: a
    // quick on → off must end off.
    await this.#save((d) => (d.workOffline === on ? d : { ...d, workOffline: on }))
  }

  #newId(name: string): string {
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 30) || 'profile'
    for (;;) {
      const id = `${slug}-${randomBytes(2).toString('hex')}`
      if (id !== SANDBOX_PROFILE_ID && !this.find(id)) return id
    }
  }
}
