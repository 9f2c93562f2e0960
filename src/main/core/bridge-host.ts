import { bridgeCalls, isBridgeCallName } from '../../shared/bridge/call-schemas'
import {
  type BridgeCallName,
  type BridgeCallOutputs,
  type BridgeCallParsed,
  type BridgeEventName,
  type BridgeEvents,
} from '../../shared/bridge/contract'
import { fail, ok, type BridgeResult } from '../../shared/bridge/errors'
import { AppError } from './app-error'

export type BridgeHandlers = {
  [K in BridgeCallName]: (input: BridgeCallParsed<K>) => Promise<BridgeCallOutputs[K]> | BridgeCallOutputs[K]
}

type Listener = (event: BridgeEventName, payload: unknown) => void

export interface BridgeHostOptions {
  /** Where unexpected errors are reported; must never receive the API key (callers redact). */
  log?: (message: string) => void
  /**
   * The last line of defence for the key: every answer and event leaving main is checked,
   * and any registered secret in it is replaced. (Nothing in core puts it there; a service
   * that echoes the key back in a body would.)
   */
  redactor?: { contains(text: string): boolean; redact(text: string): string }
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

  constructor(handlers: Partial<BridgeHandlers>, options: BridgeHostOptions = {}) {
    this.#handlers = handlers
    this.#log = options.log ?? (() => {})
    this.#redactor = options.redactor
  }

  /** Adds or replaces handlers (the core registers them after construction). */
  register(handlers: Partial<BridgeHandlers>): void {
    Object.assign(this.#handlers, handlers)
  }

  #scrub<T>(value: T): T {
    const r = this.#redactor
    if (!r || value === undefined) return value
    let text: string | undefined
    try {
      text = JSON.stringify(value)
    } catch {
      return value // not JSON (the transports could not send it either); nothing to scan
    }
    if (text === undefined || !r.contains(text)) return value
    this.#log('a bridge answer held a secret; it was redacted before leaving main')
    return JSON.parse(r.redact(text)) as T
  }

  async dispatch(name: unknown, input: unknown): Promise<BridgeResult<unknown>> {
    return this.#scrub(await this.#dispatch(name, input))
  }

  async #dispatch(name: unknown, input: unknown): Promise<BridgeResult<unknown>> {
    if (!isBridgeCallName(name)) {
      return fail({ kind: 'invalid-input', message: `Unknown bridge call ${typeof name === 'string' ? JSON.stringify(name.slice(0, 60)) : `(a ${typeof name})`}.`, field: 'name' })
    }
    const parsed = bridgeCalls[name].safeParse(input ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue?.path.join('.') || 'input'
      return fail({ kind: 'invalid-input', message: `${name}: ${field}: ${issue?.message ?? 'invalid input'}`, field })
    }
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
