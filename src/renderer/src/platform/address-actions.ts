import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** An address on a network: what a pivot's menu acts on. */
export interface AddressTarget {
  network: string
  address: string
}

/**
 * The menu actions of an address that belong to other features (label, add to case, add to
 * watchlist, filter the view). The pivot (features/pivot) must not import those features: they
 * all render pivots, and the feature graph has no cycle (docs/architecture.md "Rooms"). So the
 * features' composer registers them here (pages/PivotHost.vue; a view that can be filtered
 * registers 'filter' while it is shown), and the pivot reads them
 * (docs/decisions/pivot-actions.md).
 */
export type AddressActionId = 'label' | 'case' | 'watchlist' | 'filter'

export type AddressAction = (target: AddressTarget) => void

/** The user's name of an address on a network (watchlist label, then address label), or null. */
export type NameSource = (target: AddressTarget) => string | null

export const useAddressActions = defineStore('address-actions', () => {
  const actions = shallowRef(new Map<AddressActionId, AddressAction>())
  const names = shallowRef<{ of: NameSource; want: () => void } | null>(null)

  /** Registers an action; answers the function that removes it (only if still this one). */
  function provide(id: AddressActionId, run: AddressAction): () => void {
    actions.value = new Map(actions.value).set(id, run)
    return () => {
      if (actions.value.get(id) !== run) return
      const next = new Map(actions.value)
      next.delete(id)
      actions.value = next
    }
  }

  function has(id: AddressActionId): boolean {
    return actions.value.has(id)
  }

  function run(id: AddressActionId, target: AddressTarget): boolean {
    const action = actions.value.get(id)
    if (!action) return false
    action(target)
    return true
  }

  /** Where names come from; `want` loads them, once a pivot is shown (not before: it costs reads). */
  function provideNames(of: NameSource, want: () => void): void {
    wanted = false
    names.value = { of, want }
  }

  let wanted = false
  /** A pivot is on screen: the names are wanted (called from its setup, never while rendering). */
  function wantNames(): void {
    if (wanted || !names.value) return
    wanted = true
    names.value.want()
  }

  function nameOf(target: AddressTarget): string | null {
    return names.value?.of(target) ?? null
  }

  return { actions, provide, has, run, provideNames, wantNames, nameOf }
})
