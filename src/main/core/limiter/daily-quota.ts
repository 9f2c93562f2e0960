import { systemClock, utcDay, type Clock } from '../util/clock'
import type { QuotaLedger, QuotaRecord } from './quota-store'

export interface DailyQuotaOptions {
  /** The ledger id: the profile id, or `<profile id>|<bucket>` for a narrower scope. */
  id: string
  /** Where the count is kept (a file in the data folder in the app). */
  ledger: QuotaLedger
  /** Default: the system clock. */
  clock?: Clock
  /** The count is persisted this many requests ahead (see quota-store.ts). Default 10. */
  reserveStep?: number
}

/**
 * Today's request count of one bucket, kept in a ledger across restarts and crashes. The day
 * is the calendar day in UTC (README "Choices"): the count starts again at 00:00 UTC, and a new
 * key (a new `keyTag`) starts it again too. The ledger always holds at least the true count:
 * it is written `reserveStep` requests ahead, so after a crash the count can only be too high.
 */
export class DailyQuota {
  readonly #id: string
  readonly #ledger: QuotaLedger
  readonly #clock: Clock
  readonly #step: number
  #record: QuotaRecord
  #persisted: number

  constructor(options: DailyQuotaOptions) {
    this.#id = options.id
    this.#ledger = options.ledger
    this.#clock = options.clock ?? systemClock
    this.#step = Math.max(1, options.reserveStep ?? 10)
    const today = utcDay(this.#clock.now())
    const stored = this.#ledger.load(this.#id)
    this.#record =
      stored && stored.day === today ? { ...stored } : { day: today, used: 0, keyTag: stored?.keyTag ?? '' }
    this.#persisted = this.#record.used
  }

  /** Requests counted today (a new UTC day starts from zero). */
  used(): number {
    this.#rollDay()
    return this.#record.used
  }

  /** Tells which key is counted; a different key starts a fresh count. Answers whether it changed. */
  useKey(keyTag: string): boolean {
    if (this.#record.keyTag === keyTag) return false
    const changed = this.#record.keyTag !== ''
    this.#record = { day: this.#record.day, used: changed ? 0 : this.#record.used, keyTag }
    this.#persist(true)
    return true
  }

  /** Counts a request's units (billing.ts) before it is sent; `quotaPerDay` caps how far ahead the ledger is written. */
  take(quotaPerDay: number, units = 1): void {
    this.#rollDay()
    this.#record.used += units
    if (this.#record.used > this.#persisted) this.#persist(false, quotaPerDay)
  }

  /** The service says the day's quota is gone, whatever our count says: believe it. */
  exhaust(quotaPerDay: number): void {
    this.#rollDay()
    this.#record.used = Math.max(this.#record.used, quotaPerDay)
    this.#persist(true)
  }

  /** Writes the exact count (on shutdown). */
  flush(): void {
    if (this.#persisted !== this.#record.used) this.#persist(true)
  }

  #rollDay(): void {
    const today = utcDay(this.#clock.now())
    if (this.#record.day === today) return
    this.#record = { day: today, used: 0, keyTag: this.#record.keyTag }
    this.#persist(true)
  }

  #persist(exact: boolean, quotaPerDay = Infinity): void {
    const target = exact
      ? this.#record.used
      : Math.min(this.#record.used + this.#step - 1, Math.max(this.#record.used, quotaPerDay))
    this.#persisted = target
    this.#ledger.save(this.#id, { ...this.#record, used: target })
  }
}
