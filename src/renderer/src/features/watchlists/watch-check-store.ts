import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { BridgeEvents, WatchCheckResult, WatchSettings, WatchStatus } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import type { CostEstimate } from '@shared/domain/cost'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'
import { useAppStore } from '../../platform/app-store'
import { useWatchSummariesStore } from '../balances'

const keyOf = (network: string, address: string): string => `${network}|${address.toLowerCase()}`

/**
 * The watch check as the renderer sees it: per (network, address) what changed since the last
 * look, the list-level "Check for changes" with its cost, "mark seen" and the periodic check's
 * settings. Main owns the state (watch-service.ts); this mirrors it from answers and the
 * `watch.changed` event. In the web host a check that found something new raises the
 * browser's notification (with permission); Electron's main raises the desktop one itself.
 */
export const useWatchCheckStore = defineStore('watch-check', () => {
  const statuses = ref<Record<string, WatchStatus>>({})
  const running = ref(false)
  const last = ref<WatchCheckResult | null>(null)
  const checking = action()
  const estimate = ref<(CostEstimate & { addresses: number }) | null>(null)
  const settings = ref<WatchSettings | null>(null)
  /** While a check reads a long gap: how far, per network. */
  const progress = ref<Record<string, BridgeEvents['watch.progress']>>({})

  function merge(list: WatchStatus[]): void {
    const next = { ...statuses.value }
    for (const s of list) next[keyOf(s.network, s.address)] = s
    statuses.value = next
  }

  bridge.on('watch.changed', (list) => {
    if (Array.isArray(list)) merge(list)
  })
  bridge.on('watch.progress', (p) => {
    if (running.value && p && typeof p.network === 'string') progress.value = { ...progress.value, [p.network]: p }
  })

  function get(network: string, address: string): WatchStatus | null {
    return statuses.value[keyOf(network, address)] ?? null
  }

  async function load(): Promise<void> {
    const [s, cfg] = await Promise.all([bridge.invoke('watch.status', {}), bridge.invoke('watch.settings', {})])
    if (s.ok) merge(s.value)
    if (cfg.ok) settings.value = cfg.value
  }

  async function loadEstimate(listId: string): Promise<void> {
    const r = await bridge.invoke('watch.estimate', { listId })
    estimate.value = r.ok ? r.value : null
  }

  async function check(listId: string): Promise<BridgeResult<WatchCheckResult>> {
    running.value = true
    checking.clear()
    const before = new Set(
      Object.values(statuses.value)
        .filter((s) => s.unseen)
        .map((s) => keyOf(s.network, s.address)),
    )
    try {
      const r = await bridge.invoke('watch.check', { listId })
      if (r.ok) {
        last.value = r.value
        merge(r.value.statuses)
        const fresh = r.value.statuses.filter((s) => s.unseen && !before.has(keyOf(s.network, s.address)))
        if (fresh.length > 0) browserNotify(fresh.length)
        // The check refetched the changed addresses' balances in main: show them. These are
        // answered from main's fresh cache (no request), so "Last known balances" follows.
        const changedNow = r.value.statuses.filter((s) => s.unseen)
        void Promise.all(
          changedNow.map(async (s) => {
            const b = await bridge.invoke('data.balances', { network: s.network, address: s.address, priority: 'user' })
            if (b.ok) useWatchSummariesStore().record(b.value)
          }),
        )
      } else checking.fail(r.error)
      return r
    } finally {
      running.value = false
      progress.value = {}
      void loadEstimate(listId)
    }
  }

  async function markSeen(listId: string, entryId?: string): Promise<void> {
    const r = await bridge.invoke('watch.markSeen', entryId ? { listId, entryId } : { listId })
    if (r.ok) merge(r.value)
  }

  async function setPeriodic(periodic: boolean): Promise<void> {
    const r = await bridge.invoke('watch.setSettings', { periodic })
    if (r.ok) settings.value = r.value
  }

  async function setBudget(budgetFraction: number): Promise<void> {
    const r = await bridge.invoke('watch.setSettings', { budgetFraction })
    if (r.ok) settings.value = r.value
  }

  /** The web host's notification: only with the user's permission, asked for by a click. */
  function browserNotify(changed: number): void {
    if (
      useAppStore().info?.host !== 'web' ||
      typeof Notification === 'undefined' ||
      Notification.permission !== 'granted'
    )
      return
    new Notification('Watchlist: something changed', {
      body: `${changed} watched address${changed === 1 ? '' : 'es'} changed.`,
    })
  }

  return {
    statuses,
    running,
    last,
    error: checking.error,
    estimate,
    settings,
    progress,
    get,
    load,
    loadEstimate,
    check,
    markSeen,
    setPeriodic,
    setBudget,
  }
})
