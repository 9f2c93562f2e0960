import { defineStore } from 'pinia'
import { ref } from 'vue'

/** One ticking clock for every "5 min ago" and countdown, instead of a timer per row. */
export const useClockStore = defineStore('clock', () => {
  const now = ref(Date.now())
  let timer: ReturnType<typeof setInterval> | null = null

  function start(intervalMs = 1000): void {
    if (timer !== null) return
    timer = setInterval(() => {
      now.value = Date.now()
    }, intervalMs)
  }

  function stop(): void {
    if (timer !== null) clearInterval(timer)
    timer = null
  }

  function tick(): void {
    now.value = Date.now()
  }

  start()
  return { now, start, stop, tick }
})
