import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { LimiterState } from '@shared/bridge/contract'
import { bridge } from './bridge'

/** The client-side limiter's published state, for the quota meter. */
export const useLimiterStore = defineStore('limiter', () => {
  const state = ref<LimiterState | null>(null)

  bridge.on('limiter', (s) => {
    if (s && typeof s.usedToday === 'number') state.value = s
  })

  const exhausted = computed(() => state.value !== null && state.value.leftToday <= 0)
  const resetsAtMs = computed(() => {
    const ms = state.value ? Date.parse(state.value.resetsAt) : Number.NaN
    return Number.isNaN(ms) ? null : ms
  })

  async function load(): Promise<void> {
    const result = await bridge.invoke('limiter.state', {})
    if (result.ok) state.value = result.value
  }

  return { state, exhausted, resetsAtMs, load }
})
