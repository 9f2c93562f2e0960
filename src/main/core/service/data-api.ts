import { shortHash } from '@shared/domain/short-hash'
import type { z } from 'zod'
import type { Profile } from '@shared/domain/profile'
import {
  balancesResponseSchema,
  transactionsResponseSchema,
  type BalancesResponse,
  type TransactionsResponse,
} from '@shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import { refusalInBody } from './body-refusals'
import { transactionsQuery, type CursorParams } from './cursor'
import type { RequestSender } from './request-sender'
import { parseBody } from './response-errors'
import type { BalanceSpelling, RequestOptions, ServiceContext } from './service-types'

export interface DataApiOptions {
  sender: RequestSender
  profile: () => Profile
  spelling: { get(): BalanceSpelling | null; set(spelling: BalanceSpelling): void }
  context: ServiceContext
}

/** One GET of the data API: its network, path and query (or a transactions cursor), in words. */
interface DataGet {
  network: string
  path: string
  query: URLSearchParams | { address: string; page: CursorParams | null }
  what: string
}

const shortAddress = (address: string): string => shortHash(address)

/** The data API (spec 4.1, 4.2): an address's balances and its transactions, page by page. */
export class DataApi {
  readonly #o: DataApiOptions

  constructor(options: DataApiOptions) {
    this.#o = options
  }

  async balances(network: string, address: string, options: RequestOptions): Promise<BalancesResponse> {
    const what = `the balances of ${shortAddress(address)} on ${network}`
    const remembered = this.#o.spelling.get()
    const first: BalanceSpelling = remembered ?? 'balance'
    const get = (path: BalanceSpelling): DataGet => ({ network, path, query: new URLSearchParams({ address }), what })
    try {
      const result = await this.#get(get(first), balancesResponseSchema, options)
      if (!remembered) this.#o.spelling.set(first)
      return result
    } catch (error) {
      // Spec 4.1 shows both spellings; a service that knows only the other one answers 404.
      if (!(error instanceof AppError && error.kind === 'not-found')) throw error
      const other: BalanceSpelling = first === 'balance' ? 'balances' : 'balance'
      const result = await this.#get(get(other), balancesResponseSchema, options)
      this.#o.spelling.set(other)
      this.#o.context.log?.info(`profile ${this.#o.profile().id}: the balances path is spelled "${other}"`)
      return result
    }
  }

  async transactions(
    network: string,
    address: string,
    page: CursorParams | null,
    options: RequestOptions,
  ): Promise<TransactionsResponse> {
    const what = `the transactions of ${shortAddress(address)} on ${network}`
    const get: DataGet = { network, path: 'transactions', query: { address, page }, what }
    return this.#get(get, transactionsResponseSchema, options)
  }

  async #get<S extends z.ZodType>(get: DataGet, schema: S, options: RequestOptions): Promise<z.output<S>> {
    const { network, path, query, what } = get
    const ctx = this.#o.context
    const answer = await this.#o.sender.send(
      {
        network,
        endpoint: 'data',
        what,
        idempotent: true,
        units: 1,
        build: async (key) => {
          const params =
            query instanceof URLSearchParams
              ? new URLSearchParams(query)
              : transactionsQuery(query.address, key, query.page)
          params.set('api_key', key)
          const base = this.#o.profile().baseUrl.replace(/\/+$/, '')
          return {
            url: `${base}/api/v1/${encodeURIComponent(network)}/${path}?${params.toString()}`,
            // The spec's examples send this header on GETs too.
            init: { method: 'GET', headers: { 'content-type': 'application/json', accept: 'application/json' } },
          }
        },
        // A Blockscout-style API says "429 Too Many Requests" in a 200 body.
        classify: (answer) => refusalInBody(answer, what, ctx),
      },
      options,
    )
    return parseBody(answer, schema, what, ctx)
  }
}
