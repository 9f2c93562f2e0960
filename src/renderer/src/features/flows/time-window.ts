import { computed, ref, type Ref } from 'vue'

/** How long each step of "Play through time" shows (ms). */
export const PLAY_STEP_MS = 400

/**
 * The flow graph's time window: its end is one of the edges' start times (sorted), the last
 * (everything) by default. "Play through time" starts from the first (or goes on from where it
 * is), moves one edge start per step and stops at the last; a second press pauses.
 */
export function useTimeWindow(firstTimes: () => readonly (number | null)[]) {
  const times = computed(() =>
    firstTimes()
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b),
  )
  /** Index into `times` of the window's end. */
  const windowAt: Ref<number> = ref(Number.MAX_SAFE_INTEGER)
  const windowEnd = computed(() => times.value[Math.min(windowAt.value, times.value.length - 1)] ?? null)
  const playing = ref(false)
  let player: ReturnType<typeof setInterval> | null = null

  function stop(): void {
    if (player) clearInterval(player)
    player = null
    playing.value = false
  }

  function play(): void {
    if (player) return stop()
    if (windowAt.value >= times.value.length - 1) windowAt.value = 0
    playing.value = true
    player = setInterval(() => {
      if (windowAt.value >= times.value.length - 1) return stop()
      windowAt.value++
    }, PLAY_STEP_MS)
  }

  return { times, windowAt, windowEnd, playing, play, stop }
}
