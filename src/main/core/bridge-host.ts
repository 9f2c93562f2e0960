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
}

/**
 * Validates every call against the contract, runs its handler and answers plain data. Both
 * transports (Electron IPC, the web host's HTTP) call `dispatch` and subscribe with `subscribe`.
 */
export class BridgeHost {
  readonly #handlers: Partial<BridgeHandlers>
  readonly #listeners = new Set<Listener>()
  readonly #log: (message: string) => void

  constructor(handlers: Partial<BridgeHandlers>, options: BridgeHostOptions = {}) {
    this.#handlers = handlers
    this.#log = options.log ?? (() => {})
  }

  async dispatch(name: unknown, input: unknown): Promise<BridgeResult<unknown>> {
    if (!isBridgeCallName(name)) {
      return fail({ kind: 'invalid-input', message: `Unknown bridge call ${JSON.stringify(String(name)).slice(0, 80)}.`, field: 'name' })
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
    for (const listener of this.#listeners) {
      try {
        listener(event, payload)
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
