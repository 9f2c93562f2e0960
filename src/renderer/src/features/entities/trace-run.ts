import { computed, ref, shallowRef, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import type { InternalTransferRow, InternalTransfersView } from '@shared/bridge/entity-types'
import { sameAddress } from '@shared/domain/address'
import { bridge } from '../../platform/bridge'
import { action, type Action } from '../../platform/action'

/** Transactions traced per bridge call: each call ends well inside the bridge's deadline, and progress moves. */
export const TRACE_CHUNK = 10
/** Most transactions one run traces (the newest loaded first); the bridge takes 200 at a time. */
export const MAX_TRACED = 200

export interface TracedTransfer extends InternalTransferRow {
  hash: string
}

export interface TraceRun {
  /** Transactions traced so far of `total`. */
  done: Ref<number>
  total: Ref<number>
  running: Ref<boolean>
  traced: ShallowRef<InternalTransfersView[]>
  failed: ShallowRef<{ hash: string; message: string }[]>
  /** The provider refuses traces (its words) or the run stopped early (why, and that running again resumes). */
  refused: Ref<string | null>
  stopped: Ref<string | null>
  /** Every internal transfer that touches the address, newest transaction first. */
  transfers: ComputedRef<TracedTransfer[]>
  /** Coin in to and out of the address through internal calls (wei). */
  totals: ComputedRef<{ in: bigint; out: bigint }>
  call: Action
  run(network: string, hashes: readonly string[], address: string): Promise<void>
  /** Stops after the chunk on its way (what is traced stays cached: running again resumes). */
  stop(): void
  reset(): void
}

/**
 * Traces the transactions the user chose for an address's "Internal transfers" view, a chunk at
 * a time with progress; stops on a provider's refusal, on the service's failure (the quota, the
 * rate, the connection) or when asked; resumable (main caches each trace: a run again costs only
 * the rest).
 */
export function traceRun(): TraceRun {
  const done = ref(0)
  const total = ref(0)
  const running = ref(false)
  const traced = shallowRef<InternalTransfersView[]>([])
  const failed = shallowRef<{ hash: string; message: string }[]>([])
  const refused = ref<string | null>(null)
  const stopped = ref<string | null>(null)
  const address = ref('')
  const call = action()
  let stopAsked = false

  const transfers = computed(() =>
    traced.value.flatMap((v) =>
      v.transfers
        .filter((t) => sameAddress(t.from, address.value) || sameAddress(t.to, address.value))
        .map((t) => ({ ...t, hash: v.hash })),
    ),
  )
  const totals = computed(() => {
    let into = 0n
    let out = 0n
    for (const t of transfers.value) {
      if (sameAddress(t.to, address.value)) into += BigInt(t.value)
      if (sameAddress(t.from, address.value)) out += BigInt(t.value)
    }
    return { in: into, out }
  })

  function reset(): void {
    done.value = 0
    total.value = 0
    traced.value = []
    failed.value = []
    refused.value = null
    stopped.value = null
    call.clear()
  }

  async function run(network: string, hashes: readonly string[], of: string): Promise<void> {
    if (running.value) return
    reset()
    address.value = of
    const chosen = hashes.slice(0, MAX_TRACED)
    total.value = chosen.length
    running.value = true
    stopAsked = false
    try {
      for (let i = 0; i < chosen.length; i += TRACE_CHUNK) {
        if (stopAsked) {
          stopped.value = `Stopped after ${done.value} of ${total.value}, as asked. Run it again to trace the rest.`
          return
        }
        const chunk = chosen.slice(i, i + TRACE_CHUNK)
        const answer = await call.run(() => bridge.invoke('entities.traceMany', { network, hashes: chunk }))
        if (!answer) {
          stopped.value = `Stopped after ${done.value} of ${total.value}. Run it again to trace the rest.`
          return
        }
        traced.value = [...traced.value, ...answer.traced]
        failed.value = [...failed.value, ...answer.failed]
        done.value += answer.traced.length + answer.failed.length
        if (answer.refused !== null) return void (refused.value = answer.refused)
        if (answer.stopped !== null) return void (stopped.value = answer.stopped)
      }
    } finally {
      running.value = false
    }
  }

  return {
    done,
    total,
    running,
    traced,
    failed,
    refused,
    stopped,
    transfers,
    totals,
    call,
    run,
    stop: () => (stopAsked = true),
    reset,
  }
}
