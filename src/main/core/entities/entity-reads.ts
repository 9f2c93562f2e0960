import type { BridgeCallOutputs, BridgeCallParsed } from '@shared/bridge/contract'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { Clock } from '../util/clock'
import type { EntityService } from './entity-service'
import { listFunctions, readContract, type AbiSource } from './read-contract'
import { estimateTraces, internalOf, traceMany } from './trace-many'

/** What the entity reads work on: the active profile (ready, its network checked) and the service. */
export interface EntityParts {
  activeFor(network: string): Promise<{ runtime: ProfileRuntime }>
  readonly entities: EntityService
  readonly clock: Clock
}

type Out<K extends keyof BridgeCallOutputs> = Promise<BridgeCallOutputs[K]>

/**
 * The `entities.*` bridge calls on the active profile: each starts the profile (the sandbox) if
 * it must and checks the network is one of its own before any request.
 */
export class EntityReads {
  readonly #s: EntityParts

  constructor(parts: EntityParts) {
    this.#s = parts
  }

  async cost({ network, read, id }: BridgeCallParsed<'entities.cost'>): Out<'entities.cost'> {
    return this.#s.entities.cost(await this.#runtime(network), network, read, id)
  }

  async address({ network, address, refresh }: BridgeCallParsed<'entities.address'>): Out<'entities.address'> {
    return this.#s.entities.addressKind(await this.#runtime(network), network, address, refresh)
  }

  async proxy({ network, address }: BridgeCallParsed<'entities.proxy'>): Out<'entities.proxy'> {
    return this.#s.entities.proxySlots(await this.#runtime(network), network, address)
  }

  async receipt({ network, hash, refresh }: BridgeCallParsed<'entities.receipt'>): Out<'entities.receipt'> {
    return this.#s.entities.receipt(await this.#runtime(network), network, hash, refresh)
  }

  async internal({ network, hash, refresh }: BridgeCallParsed<'entities.internal'>): Out<'entities.internal'> {
    return this.#s.entities.internalTransfers(await this.#runtime(network), network, hash, refresh)
  }

  async block({ network, number, full, refresh }: BridgeCallParsed<'entities.block'>): Out<'entities.block'> {
    return this.#s.entities.block(await this.#runtime(network), network, number, { full, refresh })
  }

  async traceCost({ network, hashes }: BridgeCallParsed<'entities.traceCost'>): Out<'entities.traceCost'> {
    return estimateTraces(this.#s.entities, await this.#runtime(network), network, hashes)
  }

  async traceMany({ network, hashes }: BridgeCallParsed<'entities.traceMany'>): Out<'entities.traceMany'> {
    return traceMany(this.#s.entities, await this.#runtime(network), network, hashes)
  }

  async internalOf({ network, address, hashes }: BridgeCallParsed<'entities.internalOf'>): Out<'entities.internalOf'> {
    return internalOf(this.#s.entities, await this.#runtime(network), { network, address, hashes })
  }

  functions(input: BridgeCallParsed<'entities.functions'>): BridgeCallOutputs['entities.functions'] {
    return listFunctions(sourceOf(input))
  }

  async readContract(input: BridgeCallParsed<'entities.readContract'>): Out<'entities.readContract'> {
    const { network, address, fn, args } = input
    const source = sourceOf(input)
    return readContract(await this.#runtime(network), { network, address, source, fn, args }, this.#s.clock)
  }

  async #runtime(network: string): Promise<ProfileRuntime> {
    return (await this.#s.activeFor(network)).runtime
  }
}

/** The schema lets exactly one of the two through. */
function sourceOf(input: { abi?: string; standard?: AbiSource['standard'] }): AbiSource {
  return input.abi !== undefined ? { abi: input.abi } : { standard: input.standard! }
}
