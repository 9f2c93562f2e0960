import { systemClock, utcDay, type Clock } from '../util/clock'
import type { QuotaLedger, QuotaRecord } from './quota-store'

export interface DailyQuotaOptions {
  /** The profile's ledger id: the profile id, or `<profile id>|<bucket>` for a narrower scope. */
  id: string
  /** The bucket within the key ('' for the whole key, else as in limiter-pool.ts `bucketKey`). */
  bucket?: string
  /** Where the count is kept (a file in the data folder in the app). */
  ledger: QuotaLedger
  /** Default: the system clock. */
  clock?: Clock
  /** The count is persisted this many requests ahead (see quota-store.ts). Default 10. */
  reserveStep?: number
}

/**
 * The ledger id of a key's count: the key's fingerprint (service-client.ts `keyTag`), never a
 * profile id (those are `[a-z0-9-]`, so no profile id can name one).
 */
export function keyLedgerId(keyTag: string, bucket = ''): string {
  return bucket === '' ? `key:${keyTag}` : `key:${keyTag}|${bucket}`
}

/** One ledger record's live count, shared by every quota of one ledger that counts it. */
interface Counter {
  id: string
  record: QuotaRecord
  /** What the ledger was asked to hold (at least `record.used`, see `#persist`). */
  persisted: number
  /** What a restart would find: the count whose write has been decided (landed, or refused and told). */
  durable: number
  /** The write of `persisted` while it is under way (a ledger that writes in the background). */
  pending: Promise<void> | null
}

/**
 * The live counters of each ledger: two profiles with one key (or one profile going back to a
 * key it used earlier today) count into one record, in memory as on disk. Keyed by the ledger
 * object, so a new ledger (a restart) starts from what reached the disk.
 */
const countersByLedger = new WeakMap<QuotaLedger, Map<string, Counter>>()

function counterFor(ledger: QuotaLedger, id: string, day: string, keyTag: string): Counter {
  let counters = countersByLedger.get(ledger)
  if (!counters) countersByLedger.set(ledger, (counters = new Map()))
  let counter = counters.get(id)
  if (!counter) {
    const stored = ledger.load(id)
    const record = stored && stored.day === day ? { ...stored } : { day, used: 0, keyTag: stored?.keyTag ?? keyTag }
    counter = { id, record, persisted: record.used, durable: record.used, pending: null }
    counters.set(id, counter)
  }
  return counter
}

/** Today's count under ledger id `id`, the live one when a quota counts it now. */
export function countToday(ledger: QuotaLedger, id: string, day: string): QuotaRecord | null {
  const live = countersByLedger.get(ledger)?.get(id)?.record ?? ledger.load(id)
  return live && live.day === day ? { ...live } : null
}

/** Raises the count under `id` to `record.used` (never lowers it), in memory and in the ledger. */
export function raiseCount(ledger: QuotaLedger, id: string, record: QuotaRecord): void {
  const counter = counterFor(ledger, id, record.day, record.keyTag)
  const sameDay = counter.record.day === record.day
  if (sameDay && counter.record.used >= record.used) return
  counter.persisted = sameDay ? Math.max(counter.persisted, record.used) : record.used
  counter.record = { ...record }
  if (!sameDay) counter.durable = 0
  void settleDurable(counter, counter.persisted, ledger.save(id, { ...record, used: counter.persisted }))
}

/**
 * Raises what the counter knows is on disk once the write of `target` is decided: at once for a
 * ledger that keeps it at once, else when its promise settles. A write of another day (the day
 * rolled meanwhile) or one a later exact write undercut raises nothing beyond what was asked since.
 */
function settleDurable(counter: Counter, target: number, written: void | Promise<void>): Promise<void> | null {
  const day = counter.record.day
  const raise = (): void => {
    if (counter.record.day === day) counter.durable = Math.max(counter.durable, Math.min(target, counter.persisted))
  }
  if (!written) {
    raise()
    return null
  }
  const pending: Promise<void> = written.then(() => {
    raise()
    if (counter.pending === pending) counter.pending = null
  })
  return pending
}

/**
 * Today's request count of one bucket, kept in a ledger across restarts and crashes. The day
 * is the calendar day in UTC (docs/decisions/limits-per-key.md): the count starts again at 00:00 UTC.
 *
 * The count belongs to the key, not to the profile (docs/decisions/daily-count-file.md): once the key is known it
 * is kept under the key's fingerprint (`keyLedgerId`), shared by every profile using that key and
 * found again when a profile goes back to a key it used before today. The profile's own record
 * only remembers which key it used last (so its count shows before its first request), and a
 * count saved per profile by an earlier version is carried into its key's record once.
 *
 * The ledger always holds at least the true count: it is written `reserveStep` requests ahead,
 * so after a crash the count can only be too high.
 */
export class DailyQuota {
  readonly #id: string
  readonly #bucket: string
  readonly #ledger: QuotaLedger
  readonly #clock: Clock
  readonly #step: number
  #counter: Counter

  constructor(options: DailyQuotaOptions) {
    this.#id = options.id
    this.#bucket = options.bucket ?? ''
    this.#ledger = options.ledger
    this.#clock = options.clock ?? systemClock
    this.#step = Math.max(1, options.reserveStep ?? 10)
    const today = utcDay(this.#clock.now())
    this.#counter = counterFor(this.#ledger, this.#id, today, '')
    const lastKey = this.#counter.record.keyTag
    if (lastKey !== '') this.#counter = this.#keyCounter(lastKey)
  }

  /** The fingerprint of the key counted now ('' before the first request). */
  get keyTag(): string {
    return this.#counter.record.keyTag
  }

  /** Requests counted today (a new UTC day starts from zero). */
  used(): number {
    this.#rollDay()
    return this.#counter.record.used
  }

  /** Tells which key is counted: each key has its own count. Answers whether it changed. */
  useKey(keyTag: string): boolean {
    if (this.#counter.record.keyTag === keyTag) return false
    this.flush()
    this.#counter = this.#keyCounter(keyTag)
    // The profile's record points at the key it uses now.
    const own = counterFor(this.#ledger, this.#id, this.#counter.record.day, keyTag)
    own.record = { day: this.#counter.record.day, used: this.#counter.record.used, keyTag }
    own.persisted = own.record.used
    // Which key the profile used last: a pointer, not a count, so nothing waits for its write.
    void this.#ledger.save(this.#id, own.record)
    return true
  }

  /**
   * Whether `units` more may be sent now: null once the ledger holds a count covering them (a
   * step is reserved ahead when it does not), else the write to wait for. So a crash never
   * finds a count below what was sent, and a disk that hangs holds the requests, never the
   * event loop: its write is decided (given up, and told) at the ledger's deadline.
   */
  ready(quotaPerDay: number, units = 1): Promise<void> | null {
    this.#rollDay()
    const counter = this.#counter
    const needed = counter.record.used + units
    if (needed <= counter.durable) return null
    if (needed > counter.persisted) this.#persistCounter(counter, { ahead: units, quotaPerDay })
    return needed <= counter.durable ? null : counter.pending
  }

  /** Counts a request's units (billing.ts) before it is sent; `quotaPerDay` caps how far ahead the ledger is written. */
  take(quotaPerDay: number, units = 1): void {
    this.#rollDay()
    this.#counter.record.used += units
    if (this.#counter.record.used > this.#counter.persisted) this.#persistCounter(this.#counter, { quotaPerDay })
  }

  /** The service says the day's quota is gone, whatever our count says: believe it. */
  exhaust(quotaPerDay: number): void {
    this.#rollDay()
    this.#counter.record.used = Math.max(this.#counter.record.used, quotaPerDay)
    this.#persist()
  }

  /** Writes the exact count (on shutdown). */
  flush(): void {
    if (this.#counter.persisted !== this.#counter.record.used) this.#persist()
  }

  /**
   * The key's counter. A count the profile's record holds for this key today (written per
   * profile by an earlier version) or for no key yet (counted before the key was known) is
   * carried in: the count is never lowered.
   */
  #keyCounter(keyTag: string): Counter {
    const today = utcDay(this.#clock.now())
    const counter = counterFor(this.#ledger, keyLedgerId(keyTag, this.#bucket), today, keyTag)
    const own = this.#ledger.load(this.#id)
    const mine = own !== null && (own.keyTag === keyTag || own.keyTag === '')
    if (own && mine && own.day === today && own.used > counter.record.used) {
      counter.record.used = own.used
      this.#persistCounter(counter)
    }
    return counter
  }

  #rollDay(): void {
    const today = utcDay(this.#clock.now())
    if (this.#counter.record.day === today) return
    this.#counter.record = { day: today, used: 0, keyTag: this.#counter.record.keyTag }
    this.#counter.durable = 0
    this.#persist()
  }

  #persist(): void {
    this.#persistCounter(this.#counter)
  }

  /**
   * Writes the count: exact, or (given `quotaPerDay`) a step ahead of `used + ahead`. A ledger
   * writing in the background answers with a promise that settles once the write is decided.
   */
  #persistCounter(counter: Counter, reserve?: { ahead?: number; quotaPerDay: number }): void {
    const used = counter.record.used + (reserve?.ahead ?? 0)
    const target = reserve ? Math.min(used + this.#step - 1, Math.max(used, reserve.quotaPerDay)) : used
    counter.persisted = target
    // An exact write may lower what the disk holds (a flush): until it lands, trust no more.
    counter.durable = Math.min(counter.durable, target)
    const written = this.#ledger.save(counter.id, { ...counter.record, used: target })
    const pending = settleDurable(counter, target, written)
    if (pending) counter.pending = pending
  }
}
