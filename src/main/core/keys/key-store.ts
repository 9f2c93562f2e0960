import type { KeyStatus } from '@shared/bridge/contract'
import { errorMessage } from '@shared/guards'
import { AppError } from '../util/app-error'
import type { Logger, Redactor } from '../util/logger'
import { systemClock, type Clock } from '../util/clock'

/** The three keytar functions Chainscope uses; injected so the host (or a test) picks the backend. */
export interface KeychainBackend {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

/** keytar, loaded on first use: a missing or unloadable native module means "no keychain". */
export async function loadKeytar(): Promise<KeychainBackend> {
  // keytar is CommonJS: bundled, its functions sit on `default`; under plain Node ESM, on both.
  const mod = await import('keytar')
  return mod.default ?? mod
}

/**
 * Which keychain entry holds a profile's key: named by the data folder's settings, never by
 * the caller (SettingsStore.keyRef), so a profile id from the bridge cannot select a key.
 */
export interface KeyRef {
  /** Reported in the status only. */
  profileId: string
  /** The keychain account: a random id of this profile in this data folder, plus its origins. */
  account: string
  /**
   * Where an earlier version kept the key (the account was the profile id alone): read once
   * when the new entry is empty and copied over; `done` is called once that is settled, so the
   * old name is never read again. The old entry is left in place: another data folder with a
   * profile of the same id may still read it (it was shared), and deleting it would lose its key.
   */
  legacy?: { account: string; done: () => void | Promise<void> }
}

export interface KeyStoreOptions {
  backend?: () => Promise<KeychainBackend>
  /** Keychain service name; one account per `KeyRef.account`. Default 'Chainscope'. */
  service?: string
  redactor: Redactor
  log?: Logger
  /**
   * Every keychain operation answers within this or counts as failed, and the keychain is then
   * taken as unusable for the rest of the run (keys are kept for the session only). A Secret
   * Service that never answers (D-Bus autolaunch with no keyring) would otherwise hang "Save
   * and test" for minutes. Default 5 s.
   */
  deadlineMs?: number
  /** Default: the system clock. */
  clock?: Clock
}

interface Held {
  key: string
  storage: 'keychain' | 'session'
}

const PROBE_ACCOUNT = '__chainscope_probe__'

/**
 * API keys: in the OS keychain (service "Chainscope", account = `KeyRef.account`) and in main's
 * memory, nowhere else. The bridge can set, replace, clear, test and ask "is it set" (with
 * the last four characters); no call returns a key. When the keychain cannot be used (no
 * Secret Service, locked, keytar missing) the status says why in plain words and a key can be
 * kept for this session only, in memory; it is never written anywhere as plain text.
 */
export class KeyStore {
  readonly #o: KeyStoreOptions
  readonly #service: string
  readonly #held = new Map<string, Held>()
  #backend: Promise<{ backend: KeychainBackend | null; problem: string | null }> | null = null
  /** Set once an operation missed its deadline: the keychain is not asked again this run. */
  #unusable: string | null = null
  /** Keychain calls not yet settled (one that hangs stays counted). */
  #pending = 0
  readonly #deadlineMs: number
  readonly #clock: Clock

  constructor(options: KeyStoreOptions) {
    this.#o = options
    this.#service = options.service ?? 'Chainscope'
    this.#deadlineMs = options.deadlineMs ?? 5000
    this.#clock = options.clock ?? systemClock
  }

  /**
   * A keychain call is still running in a native thread (one that missed its deadline may
   * never end). Such a thread blocks a normal `process.exit` (libuv joins its threads at
   * exit), so hosts then end by signal.
   */
  get stuck(): boolean {
    return this.#pending > 0
  }

  /** One keychain operation within the deadline; a miss makes the keychain unusable for this run. */
  async #timed<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#unusable !== null) throw new KeychainUnusable(this.#unusable)
    let timer: unknown
    const late = new Promise<never>((_resolve, reject) => {
      timer = this.#clock.setTimeout(() => {
        const s = Math.round(this.#deadlineMs / 1000)
        this.#unusable = `The system keychain did not answer within ${s} s (is a Secret Service such as GNOME Keyring running?); keys are kept for this session only until Chainscope restarts.`
        this.#backend = Promise.resolve({ backend: null, problem: this.#unusable })
        this.#o.log?.warn(`keychain: no answer within ${s} s; not used again this run`)
        reject(new KeychainUnusable(this.#unusable))
      }, this.#deadlineMs)
    })
    this.#pending++
    const running = operation().finally(() => this.#pending--)
    try {
      return await Promise.race([running, late])
    } finally {
      this.#clock.clearTimeout(timer)
    }
  }

  /** Probes the keychain once; after a failed probe, `status` probes again (it may be unlocked now), unless it timed out. */
  async #keychain(): Promise<{ backend: KeychainBackend | null; problem: string | null }> {
    if (!this.#backend) {
      this.#backend = (async () => {
        try {
          const backend = await this.#timed(() => (this.#o.backend ?? loadKeytar)())
          await this.#timed(() => backend.getPassword(this.#service, PROBE_ACCOUNT))
          return { backend, problem: null }
        } catch (error) {
          const problem = error instanceof KeychainUnusable ? error.message : explainKeychainProblem(error)
          this.#o.log?.warn(`keychain unavailable: ${problem}`)
          return { backend: null, problem }
        }
      })()
    }
    return this.#backend
  }

  /** The key of a profile, from memory or the keychain; null when none is set. */
  async get(ref: KeyRef): Promise<string | null> {
    const held = this.#held.get(ref.account)
    if (held) return held.key
    const { backend } = await this.#keychain()
    if (!backend) return null
    let key: string | null
    try {
      key = await this.#timed(() => backend.getPassword(this.#service, ref.account))
      if (key === null && ref.legacy) key = await this.#adoptLegacy(backend, ref)
    } catch (error) {
      if (error instanceof KeychainUnusable) return null
      throw new AppError('keychain', `The keychain could not be read: ${explainKeychainProblem(error)}`)
    }
    if (key) {
      this.#o.redactor.add(key)
      this.#held.set(ref.account, { key, storage: 'keychain' })
    }
    return key
  }

  /** The key an earlier version stored under the profile id, copied to the entry `ref` names. */
  async #adoptLegacy(backend: KeychainBackend, ref: KeyRef): Promise<string | null> {
    const legacy = ref.legacy!.account
    const key = await this.#timed(() => backend.getPassword(this.#service, legacy))
    if (key !== null) {
      try {
        await this.#timed(() => backend.setPassword(this.#service, ref.account, key))
        const back = await this.#timed(() => backend.getPassword(this.#service, ref.account))
        if (back !== key) throw new Error('the keychain did not keep the copy')
      } catch (error) {
        // Not copied: the key is used as read, and the old name is read again next time.
        const why = errorMessage(error)
        this.#o.log?.warn(`keychain: the key of profile ${ref.profileId} stays in its old entry for now (${why})`)
        return key
      }
      this.#o.log?.info(`keychain: the key of profile ${ref.profileId} moved to this data folder's own entry`)
    }
    await settleLegacy(ref)
    return key
  }

  /** A key main manages itself (the sandbox's), kept in memory only. */
  setManaged(ref: KeyRef, key: string): void {
    this.#o.redactor.add(key)
    this.#held.set(ref.account, { key, storage: 'session' })
  }

  forgetManaged(ref: KeyRef): void {
    this.#held.delete(ref.account)
  }

  async set(ref: KeyRef, key: string, sessionOnly: boolean): Promise<KeyStatus> {
    this.#o.redactor.add(key)
    // The user replaces the key: whatever an earlier version stored is not read any more.
    await settleLegacy(ref)
    const { backend, problem } = await this.#keychain()
    if (sessionOnly) {
      // Replacing a stored key with a session-only one must not leave the old one behind.
      if (backend) await this.#timed(() => backend.deletePassword(this.#service, ref.account)).catch(() => false)
      this.#held.set(ref.account, { key, storage: 'session' })
      return this.status(ref)
    }
    if (!backend && this.#unusable !== null) {
      // It stopped answering earlier this run: the session-only fallback, said in the status.
      this.#held.set(ref.account, { key, storage: 'session' })
      return this.status(ref)
    }
    if (!backend) {
      throw new AppError(
        'keychain',
        `${problem ?? 'The keychain is not available.'} Choose "this session only" to use the key until Chainscope quits.`,
      )
    }
    try {
      await this.#timed(() => backend.setPassword(this.#service, ref.account, key))
      // Some backends fail silently (a locked collection); read it back to be sure.
      const back = await this.#timed(() => backend.getPassword(this.#service, ref.account))
      if (back !== key) throw new Error('the keychain did not keep the key (is it locked?)')
    } catch (error) {
      if (error instanceof KeychainUnusable) {
        // It stopped answering: keep the key for this session, as when there is no keychain;
        // the status says why (the key form shows it).
        this.#held.set(ref.account, { key, storage: 'session' })
        return this.status(ref)
      }
      throw new AppError('keychain', `The key could not be stored in the keychain: ${explainKeychainProblem(error)}`)
    }
    this.#held.set(ref.account, { key, storage: 'keychain' })
    return this.status(ref)
  }

  async clear(ref: KeyRef): Promise<KeyStatus> {
    this.#held.delete(ref.account)
    // Cleared means no key: an earlier version's entry must not bring one back.
    await settleLegacy(ref)
    const { backend } = await this.#keychain()
    if (backend) {
      try {
        await this.#timed(() => backend.deletePassword(this.#service, ref.account))
      } catch (error) {
        if (error instanceof KeychainUnusable) return this.status(ref)
        throw new AppError(
          'keychain',
          `The key could not be removed from the keychain: ${explainKeychainProblem(error)}`,
        )
      }
    }
    return this.status(ref)
  }

  async status(ref: KeyRef): Promise<KeyStatus> {
    if (this.#unusable === null && this.#backend && (await this.#backend).problem !== null) this.#backend = null
    const { problem } = await this.#keychain()
    let key: string | null = null
    let keychainProblem = problem
    try {
      key = await this.get(ref)
    } catch (error) {
      keychainProblem = errorMessage(error)
    }
    const held = this.#held.get(ref.account)
    return {
      profileId: ref.profileId,
      set: key !== null,
      last4: key ? key.slice(-4) : null,
      storage: held?.storage ?? 'none',
      keychainAvailable: problem === null,
      keychainProblem,
    }
  }
}

/** The old entry of `ref` is not to be read again (by this ref, nor by the settings' next one). */
async function settleLegacy(ref: KeyRef): Promise<void> {
  const legacy = ref.legacy
  ref.legacy = undefined
  await legacy?.done()
}

/** A keychain operation missed its deadline; the message says so in plain words. */
class KeychainUnusable extends Error {
  override name = 'KeychainUnusable'
}

/** Plain words for why the keychain failed, with the technical detail in brackets. */
function explainKeychainProblem(error: unknown): string {
  const detail = errorMessage(error)
  let plain: string
  if (/Cannot find module|keytar\.node|was compiled against|ERR_DLOPEN/i.test(detail)) {
    plain = 'The keychain module of this build cannot be loaded.'
  } else if (/D-?Bus|org\.freedesktop\.secrets|Secret Service|DISPLAY/i.test(detail)) {
    plain =
      'No system keychain (Secret Service) is running. On Linux, install and unlock GNOME Keyring or KWallet, then restart Chainscope.'
  } else if (/locked|dismissed|cancel/i.test(detail)) {
    plain = 'The system keychain is locked or the request was dismissed.'
  } else {
    plain = 'The system keychain refused the request.'
  }
  return `${plain} (${detail.slice(0, 200)})`
}
