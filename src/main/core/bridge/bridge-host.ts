import { bridgeCalls, isBridgeCallName } from '@shared/bridge/call-schemas'
import {
  type BridgeCallName,
  type BridgeCallOutputs,
  type BridgeCallParsed,
  type BridgeEventName,
  type BridgeEvents,
} from '@shared/bridge/contract'
import { fail, ok, type BridgeResult } from '@shared/bridge/errors'
import { AppError } from '../util/app-error'
import { jsonMayHoldSecret, type KeyScan } from '../util/logger'
import { systemClock, type Clock } from '../util/clock'

export type BridgeHandlers = {
  [K in BridgeCallName]: (input: BridgeCallParsed<K>) => Promise<BridgeCallOutputs[K]> | BridgeCallOutputs[K]
}

type Listener = (event: BridgeEventName, payload: unknown) => void

/** Nesting followed string by string; deeper parts are checked as a whole. */
const MAX_SCRUB_DEPTH = 64

export interface BridgeHostOptions {
  /** Where unexpected errors are reported; must never receive the API key (callers redact). */
  log?: (message: string) => void
  /**
   * The last line of defence for the key: every answer and event leaving main is checked,
   * and any registered secret in it is replaced. (Nothing in core puts it there; a service
   * that echoes the key back in a body would.)
   */
  redactor?: KeyScan
  /**
   * Every call answers within this, whatever the service, keychain or disk does: past it the
   * caller gets a `timeout` error (the work itself runs on to its own bounded end). Default 30 s.
   */
  deadlineMs?: number
  /** Default: the system clock. */
  clock?: Clock
}

/**
 * Validates every call against the contract, runs its handler and answers plain data. Both
 * transports (Electron IPC, the web host's HTTP) call `dispatch` and subscribe with `subscribe`.
 */
export class BridgeHost {
  readonly #handlers: Partial<BridgeHandlers>
  readonly #listeners = new Set<Listener>()
  readonly #log: (message: string) => void
  readonly #redactor: BridgeHostOptions['redactor']
  readonly #deadlineMs: number
  readonly #clock: Clock

  constructor(handlers: Partial<BridgeHandlers>, options: BridgeHostOptions = {}) {
    this.#handlers = handlers
    this.#log = options.log ?? (() => {})
    this.#redactor = options.redactor
    this.#deadlineMs = options.deadlineMs ?? 30_000
    this.#clock = options.clock ?? systemClock
  }

  /** Adds or replaces handlers (the core registers them after construction). */
  register(handlers: Partial<BridgeHandlers>): void {
    Object.assign(this.#handlers, handlers)
  }

  /**
   * Walks the value and redacts each string (and object key) that holds a secret, when its JSON
   * text may hold one (`mayHoldSecret`). The redaction itself is not done on that text: a
   * replacement spliced into it could break its escapes.
   */
  #scrub<T>(value: T): T {
    const r = this.#redactor
    if (!r || !mayHoldSecret(value, r)) return value
    let found = false
    const text = (v: string): string => {
      if (!r.contains(v)) return v
      found = true
      return r.redact(v)
    }
    const walk = (v: unknown, depth: number): unknown => {
      if (typeof v === 'string') return text(v)
      if (typeof v !== 'object' || v === null) return v
      if (depth > MAX_SCRUB_DEPTH) {
        // Deeper than any real answer: kept whole unless a secret is somewhere inside.
        if (!holdsSecret(v, r)) return v
        found = true
        return '[redacted]'
      }
      // A copy only where something changed: answers are large and almost never hold a secret.
      if (Array.isArray(v)) {
        let out: unknown[] | null = null
        for (let i = 0; i < v.length; i++) {
          const next = walk(v[i], depth + 1)
          if (next !== v[i]) (out ??= [...v])[i] = next
        }
        return out ?? v
      }
      const keys = Object.keys(v)
      const record = (k: string): unknown => Reflect.get(v, k)
      let out: Record<string, unknown> | null = null
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!
        const item = record(k)
        const key = text(k)
        const next = walk(item, depth + 1)
        if (out === null && (key !== k || next !== item)) {
          out = {}
          for (const before of keys.slice(0, i)) define(out, before, record(before))
        }
        if (out !== null) define(out, key, next)
      }
      return out ?? v
    }
    // Redaction replaces strings by strings and keeps every shape, so the type still holds.
    const safe = walk(value, 0) as T
    if (found) this.#log('a bridge answer held a secret; it was redacted before leaving main')
    return safe
  }

  /** Redact, then cut: a cut secret is no longer recognised as one. */
  #cut(text: string, max: number): string {
    return (this.#redactor ? this.#redactor.redact(text) : text).slice(0, max)
  }

  async dispatch(name: unknown, input: unknown): Promise<BridgeResult<unknown>> {
    let timer: unknown
    const late = new Promise<BridgeResult<unknown>>((resolve) => {
      timer = this.#clock.setTimeout(() => {
        const label = typeof name === 'string' ? this.#cut(name, 60) : 'The call'
        this.#log(`bridge ${label} did not answer within ${this.#deadlineMs} ms`)
        resolve(
          fail({
            kind: 'timeout',
            message: `${label} got no answer within ${Math.round(this.#deadlineMs / 1000)} s (the service, the keychain or the disk did not answer in time). Try again; if it keeps happening, check the connection and the profile.`,
          }),
        )
      }, this.#deadlineMs)
    })
    try {
      return this.#scrub(await Promise.race([this.#dispatch(name, input), late]))
    } finally {
      this.#clock.clearTimeout(timer)
    }
  }

  async #dispatch(name: unknown, input: unknown): Promise<BridgeResult<unknown>> {
    if (!isBridgeCallName(name)) {
      return fail({
        kind: 'invalid-input',
        message: `Unknown bridge call ${typeof name === 'string' ? JSON.stringify(this.#cut(name, 60)) : `(a ${typeof name})`}.`,
        field: 'name',
      })
    }
    const parsed = bridgeCalls[name].safeParse(input ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue?.path.join('.') || 'input'
      return fail({ kind: 'invalid-input', message: `${name}: ${field}: ${issue?.message ?? 'invalid input'}`, field })
    }
    // The input was just parsed by this call's own schema, which is what its handler takes.
    const handler = this.#handlers[name] as ((input: unknown) => unknown) | undefined
    if (!handler) return fail({ kind: 'internal', message: `${name} is not available in this build.` })
    try {
      return ok(await handler(parsed.data))
    } catch (error) {
      if (error instanceof AppError) return fail(error.toBridge())
      this.#log(`bridge ${name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
      return fail({ kind: 'internal', message: `${name} failed unexpectedly; the details are in the log.` })
    }
  }

  emit<E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void {
    const safe = this.#scrub(payload)
    for (const listener of this.#listeners) {
      try {
        listener(event, safe)
      } catch (error) {
        this.#log(`event listener for ${event} failed: ${String(error)}`)
      }
    }
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }
}

/**
 * Whether a secret may be somewhere in `value`: one look at its JSON text (`jsonMayHoldSecret`,
 * which says why that is sound), not a walk testing every string and key (a page of 50
 * transactions: 12 ms against about 1). A value JSON cannot write (a bigint, a cycle) is walked.
 * Answers are plain data, so JSON sees every string the walk would: no `toJSON` hides one.
 */
function mayHoldSecret(value: unknown, r: { contains(text: string): boolean }): boolean {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? r.contains(value) : false
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return true
  }
  return text === undefined || jsonMayHoldSecret(text, r)
}

/** defineProperty: a key such as "__proto__" stays a plain own property. */
function define(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Whether any string or key inside `root` holds a secret; iterative, so any depth is fine. */
function holdsSecret(root: object, r: { contains(text: string): boolean }): boolean {
  const seen = new Set<object>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') {
      if (r.contains(v)) return true
    } else if (typeof v === 'object' && v !== null && !seen.has(v)) {
      seen.add(v)
      for (const [k, item] of Object.entries(v)) {
        if (r.contains(k)) return true
        stack.push(item)
      }
    }
  }
  return false
}
