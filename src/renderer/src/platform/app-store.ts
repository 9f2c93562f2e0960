import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { bridge } from './bridge'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const error = ref<BridgeError | null>(null)

  async function load(): Promise<void> {
    const result = await bridge.invoke('app.info', {})
    if (result.ok) {
      info.value = result.value
      error.value = null
    } else {
      error.value = result.error
    }
  }

  return { info, error, load }
})
