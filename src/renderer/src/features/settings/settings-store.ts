import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Settings } from '@shared/bridge/contract'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'

/** App settings kept by main. Remote token icons are off until the user allows them. */
export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings>({ allowRemoteIcons: false })
  const io = action()

  async function load(): Promise<void> {
    const got = await io.run(() => bridge.invoke('settings.get', {}))
    if (got) settings.value = got
  }

  async function setAllowRemoteIcons(allow: boolean): Promise<boolean> {
    const saved = await io.run(() => bridge.invoke('settings.set', { allowRemoteIcons: allow }))
    if (saved) settings.value = saved
    return saved !== null
  }

  return { settings, error: io.error, load, setAllowRemoteIcons }
})
