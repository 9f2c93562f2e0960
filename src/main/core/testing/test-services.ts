import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeEventName } from '@shared/bridge/contract'
import type { ProfileInput } from '@shared/domain/profile'
import { CoreServices, type CoreServicesOptions } from '../core-services'
import { systemClock } from '../util/clock'
import { testCoreOptions } from './core-options'
import { serviceProfile } from './service-fixtures'

/**
 * The core's services as the bridge's handlers get them, on a fresh data folder, with no
 * keychain (keys are session-only) unless `extra` gives one; `events` collects what they emit.
 * For testing a use case without the bridge in front. Test support only.
 */
export function testServices(extra: Partial<CoreServicesOptions> = {}): {
  services: CoreServices
  dir: string
  events: { event: BridgeEventName; payload: unknown }[]
  dispose(): Promise<void>
} {
  const dir = mkdtempSync(join(tmpdir(), 'test-services-'))
  const events: { event: BridgeEventName; payload: unknown }[] = []
  const { log, redactor, keychain } = testCoreOptions(dir)
  const services = new CoreServices({
    dataDir: dir,
    log,
    redactor,
    clock: systemClock,
    emit: (event, payload) => events.push({ event, payload }),
    keychain,
    tuning: { client: { maxAttempts: 1, timeoutMs: 2000 } },
    ...extra,
  })
  return {
    services,
    dir,
    events,
    dispose: async () => {
      await services.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** `serviceProfile` (service-fixtures.ts) as the bridge's save input of a new profile. */
export function serviceAt(url: string): ProfileInput {
  const { name, baseUrl, rpcUrl, networks } = serviceProfile(url)
  return { name, baseUrl, rpcUrl, networks: [networks[0]!, networks[1]!] }
}
