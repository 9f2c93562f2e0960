import { balancesResponseSchema, transactionsResponseSchema } from '@shared/domain/service-schemas'
import type { HttpAnswer } from './http-attempt'
import { parseBody } from './response-errors'

/**
 * A cold process reads its first page of transactions 4-15 times slower than later ones
 * (bench:ui: 45-110 ms for 50 items, then ~5 ms): zod builds its object parsers on first use and
 * V8 compiles and optimises them as they run. Reading made-up answers of the same shape once at
 * start-up, a few items per turn of the event loop, moves that cost off the user's first page.
 * The answers are thrown away: nothing is cached, counted or sent.
 */

const ADDRESS_A = '0x1111111111111111111111111111111111111111'
const ADDRESS_B = '0x2222222222222222222222222222222222222222'

function party(hash: string, contract: boolean): Record<string, unknown> {
  return {
    hash,
    ens_domain_name: null,
    implementations: [],
    is_contract: contract,
    is_verified: contract,
    metadata: null,
    name: contract ? 'Vault' : null,
    private_tags: [],
    proxy_type: null,
    public_tags: [],
    watchlist_names: [],
  }
}

const token = {
  address: '0x3333333333333333333333333333333333333333',
  circulating_market_cap: '250075000.00',
  decimals: '6',
  exchange_rate: '1.0003',
  holders: '13',
  icon_url: null,
  name: 'Sample Dollar',
  symbol: 'SDL',
  total_supply: '250000000000000',
  type: 'ERC-20',
  volume_24h: '48213377.52',
}

/** One made-up transaction; `i` picks its kind (coin transfer, call, token transfer, failure, pending). */
function sampleTransaction(i: number): Record<string, unknown> {
  const kind = i % 5
  const pending = kind === 4
  const call = kind === 1 || kind === 3
  return {
    actions: [],
    base_fee_per_gas: pending ? null : '10018704530',
    block: pending ? null : 2000 - i,
    confirmation_duration: pending ? [] : [0, 8000],
    confirmations: pending ? 0 : i,
    created_contract: null,
    decoded_input: call
      ? {
          method_call: 'withdraw(uint256 amount)',
          method_id: '2e1a7d4d',
          parameters: [{ name: 'amount', type: 'uint256', value: '1047233163827861669' }],
        }
      : null,
    exchange_rate: '2451.83',
    fee: { type: pending ? 'maximum' : 'actual', value: '405550549092240' },
    from: party(ADDRESS_A, false),
    to: party(ADDRESS_B, call || kind === 2),
    gas_limit: '90000',
    gas_price: '11518704530',
    gas_used: pending ? null : '35208',
    has_error_in_internal_txs: false,
    hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
    max_fee_per_gas: '200000000000',
    max_priority_fee_per_gas: '1500000000',
    method: call ? 'withdraw' : kind === 2 ? 'transfer' : null,
    nonce: i,
    position: pending ? null : i % 10,
    priority_fee: '52812000000000',
    raw_input: call ? '0x2e1a7d4d0000000000000000000000000000000000000000000000000e88850396f7d8a5' : '0x',
    result: kind === 3 ? 'execution reverted' : pending ? 'pending' : 'success',
    revert_reason: kind === 3 ? 'Vault: insufficient balance' : null,
    status: kind === 3 ? 'error' : pending ? null : 'ok',
    timestamp: pending ? null : '2025-01-08T13:05:48.000000Z',
    token_transfers:
      kind === 2
        ? [
            {
              from: party(ADDRESS_A, false),
              to: party(ADDRESS_B, false),
              token,
              total: { decimals: '6', value: '1000000' },
              type: 'token_transfer',
            },
          ]
        : null,
    token_transfers_overflow: kind === 2 ? false : null,
    tx_burnt_fee: pending ? null : '352738549092240',
    tx_tag: null,
    tx_types: kind === 2 ? ['token_transfer'] : call ? ['contract_call'] : ['coin_transfer'],
    type: 2,
    value: kind === 0 ? '1023000000000000000' : '0',
  }
}

function answer(body: unknown): HttpAnswer {
  return { status: 200, contentType: 'application/json', retryAfter: null, text: JSON.stringify(body) }
}

/** Made-up service answers in the shapes the app reads most: a page of transactions and balances. */
export function warmUpAnswers(items = 10): { transactions: HttpAnswer; balances: HttpAnswer } {
  return {
    transactions: answer({
      items: Array.from({ length: items }, (_, i) => sampleTransaction(i)),
      next_page_params: {
        api_key: '',
        apikey: '',
        block_number: 1991,
        fee: '405550549092240',
        hash: `0x${'a'.repeat(64)}`,
        index: 9,
        inserted_at: '2025-01-08T13:04:01.000000Z',
        items_count: items,
        value: '0',
      },
    }),
    balances: answer({
      items: [{ token, token_id: null, token_instance: null, value: '21196536906608' }],
      next_page_params: null,
    }),
  }
}

/** Reads the made-up answers once, the same way the service client reads real ones. */
export function warmUpOnce(): void {
  const { transactions, balances } = warmUpAnswers()
  const keep = { redact: (s: string): string => s }
  parseBody(transactions, transactionsResponseSchema, 'a warm-up page', keep)
  parseBody(balances, balancesResponseSchema, 'warm-up balances', keep)
}

export interface ParserWarmUpOptions {
  /** Rounds, one per turn of the event loop. Default 5 (50 transactions, ~25 ms in all). */
  rounds?: number
  /** One round's work. Default `warmUpOnce`. */
  round?: () => void
}

/**
 * Starts the warm-up on the next turns of the event loop; answers a function that stops what
 * is left of it. A failure is ignored: the warm-up only saves time.
 */
export function startParserWarmUp(options: ParserWarmUpOptions = {}): () => void {
  const work = options.round ?? warmUpOnce
  let left = options.rounds ?? 5
  let timer: NodeJS.Immediate | null = null
  const next = (): void => {
    timer = left-- > 0 ? setImmediate(round) : null
  }
  const round = (): void => {
    try {
      work()
    } catch {
      left = 0
    }
    next()
  }
  next()
  return () => {
    if (timer) clearImmediate(timer)
    timer = null
    left = 0
  }
}
