import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { Note } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'

export type NoteKind = Note['kind']
export const noteKey = (kind: NoteKind, network: string, key: string): string =>
  `${kind}|${network}|${key.toLowerCase()}`

/** Local notes on transactions and addresses; main keeps them (notes.json) and is the one writer. */
export const useNotesStore = defineStore('notes', () => {
  const byKey = shallowRef(new Map<string, Note>())
  const loaded = ref(false)
  const listing = action()

  function replaceAll(list: Note[]): void {
    byKey.value = new Map(
      list.filter((n) => n && typeof n.key === 'string').map((n) => [noteKey(n.kind, n.network, n.key), n]),
    )
  }

  bridge.on('notes.changed', (list) => {
    if (Array.isArray(list)) replaceAll(list)
  })

  let loading: Promise<void> | null = null
  function load(): Promise<void> {
    loading ??= listing
      .run(() => bridge.invoke('notes.list', {}))
      .then((list) => {
        loaded.value = true
        if (list) replaceAll(list)
        else loading = null
      })
    return loading
  }

  function get(kind: NoteKind, network: string, key: string | null | undefined): Note | null {
    return key ? (byKey.value.get(noteKey(kind, network, key)) ?? null) : null
  }

  async function save(kind: NoteKind, network: string, key: string, text: string): Promise<BridgeResult<Note | null>> {
    const result = await bridge.invoke('notes.set', { kind, network, key, text })
    if (result.ok) {
      const next = new Map(byKey.value)
      if (result.value) next.set(noteKey(kind, network, key), result.value)
      else next.delete(noteKey(kind, network, key))
      byKey.value = next
    }
    return result
  }

  return { byKey, loaded, error: listing.error, load, get, save }
})
