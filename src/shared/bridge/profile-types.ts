import type { Profile } from '../domain/profile'

/** Profiles as the renderer lists them, and their API key's state (never the key itself). */

export interface ProfileView extends Profile {
  active: boolean
}

export interface KeyStatus {
  profileId: string
  set: boolean
  /** The last four characters only; the key itself never leaves main. */
  last4: string | null
  storage: 'keychain' | 'session' | 'none'
  keychainAvailable: boolean
  /** Why the keychain cannot be used, in plain words, when it cannot. */
  keychainProblem: string | null
}
