import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import { labelId, type AddressLabel, type LabelImportPreview } from '@shared/domain/address-label'
import type { BridgeError } from '@shared/bridge/errors'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'

/**
 * Address labels (main keeps them in labels.json and is the one writer). An import is two
 * steps: a preview of what would be added and changed, then the import with the changed
 * labels the user picked; nothing is written before the second step. One label is added,
 * changed or removed at a time from the address page and Settings.
 */
export const useLabelsStore = defineStore('labels', () => {
  const byId = shallowRef(new Map<string, AddressLabel>())
  const listing = action()

  function replaceAll(list: AddressLabel[]): void {
    byId.value = new Map(list.filter((l) => l && typeof l.address === 'string').map((l) => [labelId(l), l]))
  }
  bridge.on('labels.changed', (list) => {
    if (Array.isArray(list)) replaceAll(list)
  })

  let loading: Promise<void> | null = null
  function load(): Promise<void> {
    loading ??= listing
      .run(() => bridge.invoke('labels.list', {}))
      .then((list) => {
        if (list) replaceAll(list)
        else loading = null
      })
    return loading
  }

  function get(network: string | null | undefined, address: string | null | undefined): AddressLabel | null {
    return network && address ? (byId.value.get(labelId({ network, address })) ?? null) : null
  }

  /** The pending import: its text and network are sent again on apply, with the user's picks. */
  const pending = shallowRef<{ name: string; text: string; network: string; preview: LabelImportPreview } | null>(null)

  async function preview(name: string, text: string, network: string): Promise<BridgeError | null> {
    pending.value = null
    const r = await bridge.invoke('labels.preview', { text, network })
    if (!r.ok) return r.error
    pending.value = { name, text, network, preview: r.value }
    return null
  }

  /** `skipBad`: the user chose to apply the good rows of a file the preview found bad rows in. */
  async function apply(replace: string[], skipBad = false) {
    const p = pending.value
    if (!p) return null
    const r = await bridge.invoke('labels.import', { text: p.text, network: p.network, replace, skipBad })
    if (r.ok) pending.value = null
    return r
  }

  const exportFile = () => bridge.invoke('labels.export', {})

  /** What the user was shown before editing: main saves only while the label is still that. */
  const seenOf = (l: AddressLabel | null) => (l ? { label: l.label, note: l.note } : null)

  /** Adds or changes one label; `shown` is the label the edit started from (null: none). */
  const save = (address: string, network: string, edit: { label: string; note: string }, shown: AddressLabel | null) =>
    bridge.invoke('labels.set', { address, network, label: edit.label, note: edit.note, seen: seenOf(shown) })

  const remove = (address: string, network: string, shown: AddressLabel) =>
    bridge.invoke('labels.remove', { address, network, seen: seenOf(shown) })

  return { byId, error: listing.error, load, get, pending, preview, apply, exportFile, save, remove }
})
