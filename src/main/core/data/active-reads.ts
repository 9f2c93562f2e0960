import type {
  BalancesView,
  BridgeCallParsed,
  NetworkPresence,
  RpcBatchItem,
  RpcCallResult,
  TransactionsPage,
} from '@shared/bridge/contract'
import type { Address } from '@shared/domain/address'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import type { Profile } from '@shared/domain/profile'
import type { ApprovalsView } from '@shared/domain/approvals-view'
import type { ApprovalsService } from '../approvals/approvals-service'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { PresenceChecker } from './network-presence'

/** What the reads work on: the active profile (ready, its network checked) and the head watcher. */
export interface ActiveParts {
  active(): ProfileRuntime
  activeFor(network: string): Promise<{ runtime: ProfileRuntime; profile: Profile }>
  readonly presence: PresenceChecker
  readonly approvals: ApprovalsService
  observeHead(profileId: string, network: string, head: number): void
}

/**
 * The user's reads of the active profile: its data, the RPC console's calls, the
 * both-networks summary and the approvals an address granted. Each starts the profile (the sandbox) if it must and checks the
 * network is one of its own before any request.
 */
export class ActiveReads {
  readonly #s: ActiveParts

  constructor(parts: ActiveParts) {
    this.#s = parts
  }

  async balances(req: BridgeCallParsed<'data.balances'>): Promise<BalancesView> {
    return (await this.#s.activeFor(req.network)).runtime.data.balances(req)
  }

  async transactions(req: BridgeCallParsed<'data.transactions'>): Promise<TransactionsPage> {
    return (await this.#s.activeFor(req.network)).runtime.data.transactions(req)
  }

  /** One console call; a block number it answers is a head seen for free. */
  async rpc(network: string, method: string, params: unknown[]): Promise<RpcCallResult> {
    const { runtime } = await this.#s.activeFor(network)
    const result = await runtime.client.rpc(network, { method, params }, { priority: 'user' })
    if (method === 'eth_blockNumber') {
      const head = parseHexQuantity(result, MAX_SAFE_BIGINT)
      if (head !== null) this.#s.observeHead(runtime.profileId, network, Number(head))
    }
    return { result }
  }

  async rpcBatch(network: string, calls: BridgeCallParsed<'rpc.batch'>['calls']): Promise<RpcBatchItem[]> {
    return (await this.#s.activeFor(network)).runtime.client.rpcBatch(network, calls, { priority: 'user' })
  }

  /** Whether the address holds anything and has sent anything, on every network of the profile. */
  async presence(address: Address, mode: { refresh: boolean; cacheOnly?: boolean }): Promise<NetworkPresence[]> {
    const runtime = this.#s.active()
    const profile = await runtime.ready()
    const networks = profile.networks.map((n) => n.name)
    return this.#s.presence.check(runtime, { networks, address, ...mode })
  }

  /** `cacheOnly`: from loaded data alone, without the state call. */
  async approvals(network: string, address: Address, cacheOnly = false): Promise<ApprovalsView> {
    return this.#s.approvals.view((await this.#s.activeFor(network)).runtime, network, address, { cacheOnly })
  }

  /** Reads the rest of the address's approval logs (resuming a stopped scan), then answers like `approvals`. */
  async scanApprovals(network: string, address: Address): Promise<ApprovalsView> {
    return this.#s.approvals.scan((await this.#s.activeFor(network)).runtime, network, address)
  }

  /** Stops the active profile's scan of the address; true when one was running. */
  stopApprovalScan(network: string, address: Address): { stopped: boolean } {
    return { stopped: this.#s.approvals.stop(this.#s.active().profileId, network, address) }
  }
}
