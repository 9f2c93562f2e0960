import type { z } from 'zod'
import type { Profile } from '@shared/domain/profile'
import {
  balancesResponseSchema,
  transactionsResponseSchema,
  type BalancesResponse,
  type TransactionsResponse,
} from '@shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { refusalInBody } from './body-refusals'
import { transactionsQuery, type CursorParams } from './cursor'
import type { RequestSender } from './request-sender'
import { parseBody } from './response-errors'
import type { BalanceSpelling, RequestOptions } from './service-types'

export interface DataApiOptions {
  sender: RequestSender
  profile: () => Profile
  spelling: { get(): BalanceSpelling | null; set(spelling: BalanceSpelling): void }
  redact: (text: string) => string
  clock: Clock
  log?: Logger
}

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}

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
    try {
      const result = await this.#get(
        network,
        first,
        new URLSearchParams({ address }),
        balancesResponseSchema,
        what,
        options,
      )
      if (!remembered) this.#o.spelling.set(first)
      return result
    } catch (error) {
      // Spec 4.1 shows both spellings; a service that knows only the other one answers 404.
      if (!(error instanceof AppError && error.kind === 'not-found')) throw error
      const other: BalanceSpelling = first === 'balance' ? 'balances' : 'balance'
      const result = await this.#get(
        network,
        other,
        new URLSearchParams({ address }),
        balancesResponseSchema,
        what,
        options,
      )
      this.#o.spelling.set(other)
      this.#o.log?.info(`profile ${this.#o.profile().id}: the balances path is spelled "${other}"`)
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
    return this.#get(network, 'transactions', page, transactionsResponseSchema, what, options, address)
  }

  async #get<S extends z.ZodType>(
    network: string,
    path: string,
    params: URLSearchParams | CursorParams | null,
    schema: S,
    what: string,
    options: RequestOptions,
    address?: string,
  ): Promise<z.output<S>> {
    const answer = await this.#o.sender.send(
      network,
      'data',
      what,
      true,
      options,
      1,
      async (key) => {
        const query =
          params instanceof URLSearchParams
            ? new URLSearchParams(params)
            : transactionsQuery(address ?? '', key, params)
        query.set('api_key', key)
        const base = this.#o.profile().baseUrl.replace(/\/+$/, '')
        return {
          url: `${base}/api/v1/${encodeURIComponent(network)}/${path}?${query.toString()}`,
          // The spec's examples send this header on GETs too.
          init: { method: 'GET', headers: { 'content-type': 'application/json', accept: 'application/json' } },
        }
      },
      // A Blockscout-style API says "429 Too Many Requests" in a 200 body.
      (answer) => refusalInBody(answer, what, this.#o.clock.now(), this.#o.redact),
    )
    return parseBody(answer, schema, what, this.#o.redact)
  }
}
