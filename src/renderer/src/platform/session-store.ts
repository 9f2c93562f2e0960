import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { BridgeCallInput, KeyStatus, ProfileView, SandboxStatus } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { action } from './action'
import { bridge } from './bridge'

export type SandboxState = SandboxStatus['state']

/**
 * Profiles, the active profile's key status (never the key) and the built-in sandbox's life.
 * The key passes through `setKey` once, straight to main; no state here ever holds it.
 */
export const useSessionStore = defineStore('session', () => {
  const profiles = ref<ProfileView[]>([])
  const loaded = ref(false)
  const listing = action()
  const loadError = listing.error
  const keyStatus = ref<Record<string, KeyStatus>>({})
  const sandbox = ref<SandboxStatus | null>(null)

  const active = computed(() => profiles.value.find((p) => p.active) ?? null)
  const networks = computed(() => active.value?.networks ?? [])
  const activeKey = computed(() => (active.value ? (keyStatus.value[active.value.id] ?? null) : null))
  /** Whether the app can talk to a service: the sandbox is up, or a service profile has a key. */
  const ready = computed(() => {
    const p = active.value
    if (!p) return false
    if (p.kind === 'sandbox') return sandbox.value ? sandbox.value.state === 'ready' : p.baseUrl !== ''
    return activeKey.value?.set === true
  })

  bridge.on('profiles.changed', (list) => {
    if (Array.isArray(list)) profiles.value = list
  })
  bridge.on('sandbox', (s) => {
    if (s && typeof s.state === 'string') sandbox.value = s
  })

  async function load(): Promise<void> {
    const result = await bridge.invoke('profiles.list', {})
    if (!result.ok) {
      listing.fail(result.error)
      loaded.value = true
      return
    }
    profiles.value = result.value
    listing.clear()
    const current = active.value
    if (current) await refreshKeyStatus(current.id)
    if (current?.kind === 'sandbox') {
      const status = await bridge.invoke('sandbox.status', {})
      if (status.ok && sandbox.value === null) sandbox.value = status.value
    }
    loaded.value = true
    // The sandbox profile was left active: start its sandbox again (main starts it on demand),
    // unless it was stopped (by the user, or unexpectedly): then only the user starts it.
    if (
      current?.kind === 'sandbox' &&
      current.baseUrl === '' &&
      sandbox.value?.state !== 'starting' &&
      sandbox.value?.state !== 'ready' &&
      !sandbox.value?.stoppedAt
    )
      void startSandbox()
  }

  /** The sandbox's state as main sees it now (sample wallets included once it is ready). */
  async function refreshSandboxStatus(): Promise<void> {
    const status = await bridge.invoke('sandbox.status', {})
    if (status.ok) sandbox.value = status.value
  }

  async function refreshKeyStatus(profileId: string): Promise<BridgeResult<KeyStatus>> {
    const result = await bridge.invoke('key.status', { profileId })
    if (result.ok) keyStatus.value = { ...keyStatus.value, [profileId]: result.value }
    return result
  }

  function upsert(profile: ProfileView): void {
    const others = profiles.value
      .filter((p) => p.id !== profile.id)
      .map((p) => (profile.active ? { ...p, active: false } : p))
    profiles.value = [...others, profile]
  }

  async function startSandbox(): Promise<BridgeResult<ProfileView>> {
    if (sandbox.value?.state !== 'ready')
      sandbox.value = {
        state: 'starting',
        message: sandbox.value?.message ?? null,
        progress: sandbox.value?.progress ?? null,
      }
    const result = await bridge.invoke('profiles.activate', { id: SANDBOX_PROFILE_ID })
    if (!result.ok) {
      sandbox.value = { state: 'failed', message: result.error.message, progress: null }
      return result
    }
    upsert(result.value)
    // Main may answer once the sandbox is up, before its 'ready' event arrives.
    if (result.value.baseUrl !== '' && sandbox.value?.state === 'starting')
      sandbox.value = { state: 'ready', message: null, progress: null }
    return result
  }

  /** Settings' Stop / Start / Reset of the sandbox: main answers its status, events follow. */
  async function controlSandbox(
    action: 'sandbox.stop' | 'sandbox.start' | 'sandbox.reset',
  ): Promise<BridgeResult<SandboxStatus>> {
    const result =
      action === 'sandbox.reset' ? await bridge.invoke(action, { confirm: true }) : await bridge.invoke(action, {})
    // An event may have said more already (ready after 'starting'): only a newer state replaces it.
    if (result.ok && !(result.value.state === 'starting' && sandbox.value?.state === 'ready'))
      sandbox.value = result.value
    return result
  }

  async function activate(id: string): Promise<BridgeResult<ProfileView>> {
    if (id === SANDBOX_PROFILE_ID) return startSandbox()
    const result = await bridge.invoke('profiles.activate', { id })
    if (result.ok) {
      upsert(result.value)
      await refreshKeyStatus(id)
    }
    return result
  }

  async function saveProfile(input: BridgeCallInput<'profiles.save'>): Promise<BridgeResult<ProfileView>> {
    const result = await bridge.invoke('profiles.save', input)
    if (result.ok) upsert(result.value)
    return result
  }

  async function removeProfile(id: string): Promise<BridgeResult<null>> {
    const result = await bridge.invoke('profiles.remove', { id })
    if (result.ok) profiles.value = profiles.value.filter((p) => p.id !== id)
    return result
  }

  async function setLimits(input: BridgeCallInput<'profiles.setLimits'>): Promise<BridgeResult<ProfileView>> {
    const result = await bridge.invoke('profiles.setLimits', input)
    if (result.ok) upsert(result.value)
    return result
  }

  /** Hands the key to main once; the caller clears its input right after. */
  async function setKey(profileId: string, key: string, sessionOnly: boolean): Promise<BridgeResult<KeyStatus>> {
    const result = await bridge.invoke('key.set', { profileId, key, sessionOnly })
    if (result.ok) keyStatus.value = { ...keyStatus.value, [profileId]: result.value }
    return result
  }

  async function clearKey(profileId: string): Promise<BridgeResult<KeyStatus>> {
    const result = await bridge.invoke('key.clear', { profileId })
    if (result.ok) keyStatus.value = { ...keyStatus.value, [profileId]: result.value }
    return result
  }

  async function testKey(profileId: string): Promise<BridgeResult<{ latencyMs: number; height: string }>> {
    return bridge.invoke('key.test', { profileId })
  }

  return {
    profiles,
    loaded,
    loadError,
    keyStatus,
    sandbox,
    active,
    networks,
    activeKey,
    ready,
    load,
    refreshKeyStatus,
    refreshSandboxStatus,
    startSandbox,
    controlSandbox,
    activate,
    saveProfile,
    removeProfile,
    setLimits,
    setKey,
    clearKey,
    testKey,
  }
})
