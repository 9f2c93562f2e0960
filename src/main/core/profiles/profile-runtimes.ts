import type { Profile } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import { ProfileRuntime, type RuntimeDeps } from './profile-runtime'

/**
 * The runtimes of the profiles in use (limiters, service client, data service), made on first
 * use and ended when their profile changes or goes. `activeFor` is the door of every read: the
 * active profile, ready (the sandbox started), with the network checked against it.
 */
export class ProfileRuntimes {
  readonly #deps: RuntimeDeps
  readonly #runtimes = new Map<string, ProfileRuntime>()
  /** Called whenever a read used the active profile: its networks may have become known. */
  readonly #onActive: () => void

  constructor(deps: RuntimeDeps, onActive: () => void) {
    this.#deps = deps
    this.#onActive = onActive
  }

  get(profileId: string): ProfileRuntime {
    let runtime = this.#runtimes.get(profileId)
    if (!runtime) {
      this.#deps.settings.get(profileId)
      runtime = new ProfileRuntime(profileId, this.#deps)
      this.#runtimes.set(profileId, runtime)
    }
    return runtime
  }

  /** The runtime of `profileId` if one was made (nothing is made to answer this). */
  existing(profileId: string): ProfileRuntime | undefined {
    return this.#runtimes.get(profileId)
  }

  /** The active profile's runtime; a typed error when none is chosen. */
  active(): ProfileRuntime {
    const id = this.#deps.settings.activeProfileId
    if (!id)
      throw new AppError('not-found', 'No profile is active: start the sandbox or choose a service profile first.', {
        field: 'profile',
      })
    return this.get(id)
  }

  /** The active profile, ready (sandbox started), with `network` checked against it. */
  async activeFor(network: string): Promise<{ runtime: ProfileRuntime; profile: Profile }> {
    const runtime = this.active()
    const profile = await runtime.ready()
    if (!profile.networks.some((n) => n.name === network)) {
      const names = profile.networks.map((n) => n.name).join(' and ') || 'none yet'
      throw new AppError(
        'invalid-input',
        `"${network}" is not a network of the profile "${profile.name}" (it has ${names}).`,
        { field: 'network' },
      )
    }
    this.#onActive()
    return { runtime, profile }
  }

  /** Ends the runtime of `profileId` (the next use makes a new one). */
  end(profileId: string): void {
    this.#runtimes.get(profileId)?.dispose()
    this.#runtimes.delete(profileId)
  }

  all(): IterableIterator<ProfileRuntime> {
    return this.#runtimes.values()
  }

  dispose(): void {
    for (const runtime of this.#runtimes.values()) runtime.dispose()
  }
}
