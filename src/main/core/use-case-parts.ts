import type { ActiveParts } from './data/active-reads'
import type { KeyParts } from './keys/key-use-cases'
import type { ProfileParts } from './profiles/profile-use-cases'
import type { CoreServices } from './core-services'

/**
 * What each use case is given, picked from the services the composition root wired
 * (core-services.ts): a use case receives the parts it works on, never the whole of them.
 */
export function profileParts(s: CoreServices): ProfileParts {
  return {
    settings: s.settings,
    keys: s.keys,
    quota: s.quota,
    snapshots: s.snapshots,
    sandbox: s.sandbox,
    runtime: (id) => s.runtimes.get(id),
    forgetRuntime: (id) => s.forgetRuntime(id),
    profilesChanged: () => s.profilesChanged(),
    profileViews: () => s.profileViews(),
  }
}

export function keyParts(s: CoreServices): KeyParts {
  return {
    settings: s.settings,
    keys: s.keys,
    runtime: (id) => s.runtimes.get(id),
    observeHead: (id, network, head) => s.height.observe(id, network, head),
    redact: (text) => s.redact(text),
  }
}

export function activeParts(s: CoreServices): ActiveParts {
  return {
    active: () => s.runtimes.active(),
    activeFor: (network) => s.runtimes.activeFor(network),
    presence: s.presence,
    approvals: s.approvals,
    observeHead: (id, network, head) => s.height.observe(id, network, head),
  }
}
