import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { networkName } from '@shared/domain/profile'
import { packageRoot } from './paths'
import {
  BATCH_REFUSALS,
  BILLING_MODES,
  DEFAULT_MODES,
  LOG_DIALECTS,
  TRACE_MODES,
  type ProviderModes,
} from './api/provider-modes'

/** Everything the CLI accepts, with the defaults documented in sandbox/README.md. */
export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port: number
  /** Requests per second per key, default 50 (spec 8). */
  rate: number
  /** Burst per key, default 5 (spec 8). */
  burst: number
  /** Requests per key per UTC day, default 1000 (spec 8). */
  quota: number
  /** Default: a fresh random key each run ("sbx_" + 32 hex), printed in the ready line. */
  apiKey: string
  /** Exactly two lowercase names, default alpha,beta (chain ids 7001 and 7002 by position). */
  networks: [string, string]
  /** Mean seconds between live blocks, default 2; 0 stops block production. */
  blockTimeS: number
  /** Enables /__sandbox/stats and /__sandbox/faults, default off. */
  admin: boolean
  /** Answers every JSON-RPC batch with one -32600 error object (a provider without batches), default off. */
  noBatch: boolean
  /** Seeded-chain cache, default $SANDBOX_STATE_DIR or else <package root>/sandbox/.state. */
  stateDir: string
  /** Transactions of the busy address in the seed, default 2600 (52 pages). */
  seedTxs: number
  /** `--replay DIR`: answer for one address from item files (sandbox/api/replay.ts). Default none. */
  replay: string | null
  /**
   * 401 and 429 answered as plain text without `Retry-After` (spec 7 defines no error bodies;
   * many providers do this), default off: JSON bodies and `Retry-After`.
   */
  plainErrors: boolean
  /** The provider it plays (`--billing`, `--batch-cap`, `--log-cap`, ...; api/provider-modes.ts). */
  modes: ProviderModes
  /**
   * `--live-state DIR`: the chains are saved here (while running and on stop) and a start resumes
   * from them instead of the seed (live-state.ts). Default none: every start begins at the seed.
   */
  liveStateDir: string | null
  /** `--fresh`: forget what `--live-state` holds and start from the seed (a reset). Default off. */
  fresh: boolean
  /** `--save-every S`: seconds between saves of the live chains while their head moves. Default 15. */
  saveEveryS: number
}

export class UsageError extends Error {
  override name = 'UsageError'
  readonly kind = 'usage'
}

export const CHAIN_IDS = [7001, 7002] as const
/** Demo coin rate per network position: the first network's coin has one, the second none. */
export const COIN_RATES = ['2451.83', null] as const
/** A network's coin as the ready line names it: the network's name in capitals ("ALPHA"), 18 decimals. */
export function coinOf(network: string): { symbol: string; decimals: number } {
  return {
    symbol:
      network
        .toUpperCase()
        .replace(/[^A-Z0-9-]/g, '')
        .slice(0, 16) || 'COIN',
    decimals: 18,
  }
}
/**
 * Multicall3 at its canonical address per network position: the first network has it (as most
 * public chains do), the second not (as new chains and some L2s), so clients meet both.
 */
export const MULTICALL3_AT = [true, false] as const

function number(
  name: string,
  raw: string | undefined,
  fallback: number,
  check: (n: number) => boolean,
  rule: string,
): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${name} must be ${rule}, not "${raw}"`)
  return n
}

const int = (n: number): boolean => Number.isInteger(n)

export function parseOptions(argv: string[]): SandboxOptions {
  let values: Record<string, string | boolean | undefined>
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        rate: { type: 'string' },
        burst: { type: 'string' },
        quota: { type: 'string' },
        'api-key': { type: 'string' },
        networks: { type: 'string' },
        'block-time': { type: 'string' },
        admin: { type: 'boolean' },
        'no-batch': { type: 'boolean' },
        'state-dir': { type: 'string' },
        'seed-txs': { type: 'string' },
        replay: { type: 'string' },
        'plain-errors': { type: 'boolean' },
        billing: { type: 'string' },
        'batch-cap': { type: 'string' },
        'batch-refusal': { type: 'string' },
        'log-cap': { type: 'string' },
        'log-dialect': { type: 'string' },
        'no-finalized': { type: 'boolean' },
        'quota-402': { type: 'boolean' },
        'item-errors': { type: 'string' },
        'live-state': { type: 'string' },
        fresh: { type: 'boolean' },
        'save-every': { type: 'string' },
        traces: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const str = (k: string): string | undefined => values[k] as string | undefined
  const names = (str('networks') ?? 'alpha,beta').split(',').map((s) => s.trim())
  if (names.length !== 2)
    throw new UsageError(`--networks takes exactly two names (the service has two networks), not "${str('networks')}"`)
  for (const name of names) {
    const check = networkName.safeParse(name)
    if (!check.success) throw new UsageError(`--networks: "${name}": ${check.error.issues[0]?.message}`)
  }
  if (names[0] === names[1]) throw new UsageError('--networks needs two different names')
  if (values.fresh === true && str('live-state') === undefined)
    throw new UsageError('--fresh forgets the chains saved by --live-state DIR, so it needs --live-state')
  const apiKey = str('api-key') ?? `sbx_${randomBytes(16).toString('hex')}`
  if (!/^[A-Za-z0-9._~-]{1,128}$/.test(apiKey)) {
    throw new UsageError('--api-key must be 1-128 characters of A-Z a-z 0-9 . _ ~ - (it travels as a URL path segment)')
  }
  return {
    port: number('port', str('port'), 0, (n) => int(n) && n >= 0 && n <= 65535, 'an integer 0-65535'),
    rate: number('rate', str('rate'), 50, (n) => n > 0 && n <= 100_000, 'a number above 0'),
    burst: number('burst', str('burst'), 5, (n) => int(n) && n >= 1 && n <= 100_000, 'an integer ≥ 1'),
    quota: number('quota', str('quota'), 1000, (n) => int(n) && n >= 1, 'an integer ≥ 1'),
    apiKey,
    networks: [names[0]!, names[1]!],
    blockTimeS: number('block-time', str('block-time'), 2, (n) => n >= 0 && n <= 3600, 'seconds between 0 and 3600'),
    admin: values.admin === true,
    noBatch: values['no-batch'] === true,
    stateDir: str('state-dir') ?? (process.env.SANDBOX_STATE_DIR || join(packageRoot(), 'sandbox', '.state')),
    seedTxs: number(
      'seed-txs',
      str('seed-txs'),
      2600,
      (n) => int(n) && n >= 50 && n <= 100_000,
      'an integer 50-100000',
    ),
    replay: str('replay') ?? null,
    liveStateDir: str('live-state') ?? null,
    fresh: values.fresh === true,
    saveEveryS: number(
      'save-every',
      str('save-every'),
      15,
      (n) => n >= 0.1 && n <= 3600,
      'seconds between 0.1 and 3600',
    ),
    plainErrors: values['plain-errors'] === true,
    modes: {
      billing: oneOf('billing', str('billing'), BILLING_MODES, DEFAULT_MODES.billing),
      batchCap: number(
        'batch-cap',
        str('batch-cap'),
        DEFAULT_MODES.batchCap,
        (n) => int(n) && n >= 1 && n <= 100,
        'an integer 1-100',
      ),
      batchRefusal: oneOf('batch-refusal', str('batch-refusal'), BATCH_REFUSALS, DEFAULT_MODES.batchRefusal),
      logCap:
        str('log-cap') === undefined
          ? null
          : number('log-cap', str('log-cap'), 0, (n) => int(n) && n >= 1 && n <= 10_000_000, 'an integer ≥ 1'),
      logDialect: oneOf('log-dialect', str('log-dialect'), LOG_DIALECTS, DEFAULT_MODES.logDialect),
      noFinalized: values['no-finalized'] === true,
      quota402: values['quota-402'] === true,
      itemErrorEvery:
        str('item-errors') === undefined
          ? null
          : number('item-errors', str('item-errors'), 0, (n) => int(n) && n >= 2 && n <= 100, 'an integer 2-100'),
      traces: oneOf('traces', str('traces'), TRACE_MODES, DEFAULT_MODES.traces),
    },
  }
}

/** A flag whose value is one of `choices`. */
function oneOf<T extends string>(name: string, raw: string | undefined, choices: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback
  const found = choices.find((c) => c === raw)
  if (found === undefined) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, not "${raw}"`)
  return found
}
