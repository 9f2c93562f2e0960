import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Settings } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { bridge } from '../../platform/bridge'

/** App settings kept by main. Remote token icons are off until the user allows them. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings>({ allowRemoteIcons: false })
  const error = ref<BridgeError | null>(null)

  async function load(): Promise<void> {
    const result = await bridge.invoke('settings.get', {})
    if (result.ok) settings.value = result.value
    else error.value = result.error
  }

  async function setAllowRemoteIcons(allow: boolean): Promise<boolean> {
    const result = await bridge.invoke('settings.set', { allowRemoteIcons: allow })
    if (result.ok) {
      settings.value = result.value
      error.value = null
      return true
    }
    error.value = result.error
    return false
  }

  return { settings, error, load, setAllowRemoteIcons }
})
