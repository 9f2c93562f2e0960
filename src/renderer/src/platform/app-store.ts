import { defineStore } from 'pinia'
import { action } from './action'
import { ref } from 'vue'
import type { AppInfo } from '@shared/bridge/contract'
import { bridge } from './bridge'

export const useAppStore = defineStore('app', () => {
  const info = ref<AppInfo | null>(null)
  const outcome = action()
  const error = outcome.error

  async function load(): Promise<void> {
    const result = await bridge.invoke('app.info', {})
    if (result.ok) {
      info.value = result.value
      outcome.clear()
    } else {
      outcome.fail(result.error)
    }
  }

  return { info, error, load }
})
