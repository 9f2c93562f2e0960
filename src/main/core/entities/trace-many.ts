import type { AddressInternalView, EntityCost, InternalTransfersView, TracesRun } from '@shared/bridge/entity-types'
import { estimateCost } from '@shared/domain/cost'
import { sameAddress } from '@shared/domain/address'
import { AppError } from '../util/app-error'
import type { EntityRuntime, EntityService } from './entity-service'

/** Failures of one transaction that do not stop the others (its trace unreadable, unknown to the node). */
const PER_TRANSACTION = new Set(['rpc', 'protocol', 'not-found'])

/**
 * What tracing `hashes` costs now: 0 for each already traced (or a provider known to refuse),
 * one call for each other, and `upTo` one more where the provider's trace method is not yet
 * known (only the first can be refused: the answer is learnt).
 */
export async function estimateTraces(
  service: EntityService,
  rt: EntityRuntime,
  network: string,
  hashes: readonly string[],
): Promise<EntityCost> {
  let units = 0
  let extra = 0
  for (const hash of hashes) {
    const c = await service.cost(rt, network, 'trace', hash)
    units += c.requests
    extra = Math.max(extra, c.upTo - c.requests)
  }
  return { ...estimateCost(units, rt.limiters.state()), cached: units === 0 && extra === 0, upTo: units + extra }
}

/**
 * Traces the transactions the user chose, one after another (the user's priority, the profile's
 * limiter). Resumable: what is traced is cached, so running it again costs only the rest. It stops
 * at a provider's refusal of traces (said in words) or at a failure of the service itself (the
 * quota, the rate, the connection), answering what it read so far; a transaction that cannot be
 * traced is listed and the others go on.
 */
export async function traceMany(
  service: EntityService,
  rt: EntityRuntime,
  network: string,
  hashes: readonly string[],
): Promise<TracesRun> {
  const run: TracesRun = {
    network,
    traced: [],
    failed: [],
    refused: null,
    stopped: null,
    cost: { requests: 0, units: 0 },
  }
  for (const hash of hashes) {
    let view: InternalTransfersView
    try {
      view = await service.internalTransfers(rt, network, hash)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      if (PER_TRANSACTION.has(error.kind)) {
        run.failed.push({ hash, message: error.message })
        continue
      }
      run.stopped = `Stopped after ${run.traced.length} of ${hashes.length}: ${error.message} Run it again to trace the rest.`
      return run
    }
    run.cost.requests += view.cost.requests
    run.cost.units += view.cost.units
    if (view.refused !== null) {
      run.refused = view.refused
      return run
    }
    run.traced.push(view)
  }
  return run
}

/**
 * The coin an address received and sent inside `hashes` (its loaded transactions), from the
 * traces already kept: no request. For the flow graph and counterparties, marked internal; the
 * untraced ones are named so the view can offer to trace them (cost first, `estimateTraces`).
 */
export async function internalOf(
  service: EntityService,
  rt: EntityRuntime,
  input: { network: string; address: string; hashes: readonly string[] },
): Promise<AddressInternalView> {
  const { network, address } = input
  const view: AddressInternalView = { network, address, transfers: [], traced: [], untraced: [] }
  for (const hash of new Set(input.hashes)) {
    const trace = await service.keptTrace(rt, network, hash)
    if (!trace) {
      view.untraced.push(hash)
      continue
    }
    view.traced.push(hash)
    for (const t of trace.transfers)
      if (sameAddress(t.from, address) || sameAddress(t.to, address))
        view.transfers.push({ ...t, hash, internal: true })
  }
  return view
}
