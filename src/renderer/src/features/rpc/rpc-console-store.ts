import { defineStore } from 'pinia'
import { action } from '../../platform/action'
import { computed, ref, shallowRef, watch } from 'vue'
import { bridge } from '../../platform/bridge'
import { isRecord, readStored, writeStored } from '../../ui/persisted'
import { buildFromForm, buildFromRaw, findMethod, RPC_METHODS } from './rpc-methods'
import { useSessionStore } from '../../platform/session-store'

/**
 * One list for every profile, each entry tagged with its profile. The key keeps its v1 name:
 * entries only gained fields, so an older build still reads the list and ours reads its entries
 * (profile not recorded: shown apart as "earlier calls").
 */
const HISTORY_KEY = 'chainscope.rpc-history.v1'
/** Kept per profile (and for the earlier calls without one). */
const MAX_HISTORY = 50
/** Results kept in history are cut to this many characters so storage stays small. */
const MAX_KEPT_RESULT = 4000

export interface RpcHistoryEntry {
  id: string
  at: number
  /** The profile the call went through; null for calls recorded before history was per profile. */
  profileId: string | null
  network: string
  /** The network's label in that profile when the call was made; null when not recorded. */
  networkLabel: string | null
  method: string
  params: unknown[]
  ok: boolean
  ms: number
  /** JSON of the result (cut), or the error message. */
  summary: string
}

function accept(value: unknown): RpcHistoryEntry[] | null {
  if (!Array.isArray(value)) return null
  return value.flatMap((e): RpcHistoryEntry[] => {
    if (
      !isRecord(e) ||
      typeof e.id !== 'string' ||
      typeof e.at !== 'number' ||
      typeof e.network !== 'string' ||
      typeof e.method !== 'string' ||
      !Array.isArray(e.params)
    )
      return []
    return [
      {
        id: e.id,
        at: e.at,
        profileId: typeof e.profileId === 'string' ? e.profileId : null,
        network: e.network,
        networkLabel: typeof e.networkLabel === 'string' ? e.networkLabel : null,
        method: e.method,
        params: e.params,
        ok: e.ok === true,
        ms: typeof e.ms === 'number' ? e.ms : 0,
        summary: typeof e.summary === 'string' ? e.summary : '',
      },
    ]
  })
}

/** The newest `MAX_HISTORY` entries of each profile, order kept. */
function trim(entries: readonly RpcHistoryEntry[]): RpcHistoryEntry[] {
  const seen = new Map<string | null, number>()
  return entries.filter((e) => {
    const n = (seen.get(e.profileId) ?? 0) + 1
    seen.set(e.profileId, n)
    return n <= MAX_HISTORY
  })
}

/** The RPC console: method, parameters (form or raw JSON), the last answer and a history. */
export const useRpcConsoleStore = defineStore('rpcConsole', () => {
  const method = ref(RPC_METHODS[0]!.method)
  const mode = ref<'form' | 'raw'>('form')
  const formValues = ref<Record<string, string>>({})
  const rawText = ref('[]')
  const fieldErrors = ref<Record<string, string>>({})
  const sending = ref(false)
  const result = shallowRef<{ method: string; value: unknown; ms: number } | null>(null)
  const outcome = action()
  const error = outcome.error
  const errorAt = ref(0)
  const session = useSessionStore()
  const entries = ref<RpcHistoryEntry[]>(readStored(HISTORY_KEY, accept, []))
  /** The active profile's calls, newest first. */
  const history = computed(() =>
    entries.value.filter((e) => e.profileId !== null && e.profileId === session.active?.id),
  )
  /** Calls recorded before history was kept per profile: their profile is unknown. */
  const earlier = computed(() => entries.value.filter((e) => e.profileId === null))

  const spec = computed(() => findMethod(method.value))

  // Switching to raw JSON starts from what the form holds, so nothing typed is lost.
  watch(mode, (next) => {
    if (next !== 'raw' || !spec.value) return
    const built = buildFromForm(spec.value, formValues.value)
    rawText.value = JSON.stringify({ method: method.value, params: built.ok ? built.call.params : [] }, null, 2)
  })

  function pick(name: string): void {
    method.value = name
    formValues.value = {}
    fieldErrors.value = {}
  }

  function build() {
    if (mode.value === 'raw') return buildFromRaw(rawText.value, method.value)
    const s = spec.value
    if (!s) return { ok: false as const, errors: { method: 'Pick a method from the list, or use raw JSON.' } }
    return buildFromForm(s, formValues.value)
  }

  async function send(network: string): Promise<boolean> {
    const built = build()
    if (!built.ok) {
      fieldErrors.value = built.errors
      return false
    }
    fieldErrors.value = {}
    // Raw JSON may name another method: the picker follows it.
    if (built.call.method !== method.value && findMethod(built.call.method)) method.value = built.call.method
    sending.value = true
    const started = performance.now()
    const answer = await bridge.invoke('rpc.call', { network, method: built.call.method, params: built.call.params })
    const ms = Math.round(performance.now() - started)
    sending.value = false
    let summary: string
    if (answer.ok) {
      result.value = { method: built.call.method, value: answer.value.result, ms }
      outcome.clear()
      summary = JSON.stringify(answer.value.result) ?? 'null'
    } else {
      result.value = null
      outcome.fail(answer.error)
      errorAt.value = Date.now()
      summary = answer.error.message
      if (answer.error.kind === 'invalid-input' && answer.error.field)
        fieldErrors.value = { [answer.error.field]: answer.error.message }
    }
    const profile = session.active
    const entry: RpcHistoryEntry = {
      id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      at: Date.now(),
      profileId: profile?.id ?? null,
      network,
      networkLabel: profile?.networks.find((n) => n.name === network)?.label ?? null,
      method: built.call.method,
      params: built.call.params,
      ok: answer.ok,
      ms,
      summary: summary.length > MAX_KEPT_RESULT ? `${summary.slice(0, MAX_KEPT_RESULT)}…` : summary,
    }
    entries.value = trim([entry, ...entries.value])
    writeStored(HISTORY_KEY, entries.value)
    return answer.ok
  }

  /** Puts a past call back into the editor, as raw JSON (its params are already converted). */
  function reuse(entry: RpcHistoryEntry): void {
    method.value = entry.method
    mode.value = 'raw'
    rawText.value = JSON.stringify({ method: entry.method, params: entry.params }, null, 2)
    fieldErrors.value = {}
  }

  /** Clears the active profile's calls; other profiles' stay. */
  function clearHistory(): void {
    const id = session.active?.id
    entries.value = entries.value.filter((e) => e.profileId === null || e.profileId !== id)
    writeStored(HISTORY_KEY, entries.value)
  }

  function clearEarlier(): void {
    entries.value = entries.value.filter((e) => e.profileId !== null)
    writeStored(HISTORY_KEY, entries.value)
  }

  return {
    method,
    mode,
    formValues,
    rawText,
    fieldErrors,
    sending,
    result,
    error,
    errorAt,
    history,
    earlier,
    spec,
    pick,
    build,
    send,
    reuse,
    clearHistory,
    clearEarlier,
  }
})
