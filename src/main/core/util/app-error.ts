import type { BridgeError, ErrorKind } from '@shared/bridge/errors'

/**
 * The one error class main throws internally (docs/style.md rule 5): a `kind`, a safe message, and
 * structured fields. It becomes plain `BridgeError` data at the bridge.
 */
export class AppError extends Error {
  override name = 'AppError'
  readonly kind: ErrorKind
  readonly details: Omit<BridgeError, 'kind' | 'message'>

  constructor(
    kind: ErrorKind,
    message: string,
    details: Omit<BridgeError, 'kind' | 'message'> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.kind = kind
    this.details = details
  }

  toBridge(): BridgeError {
    return { kind: this.kind, message: this.message, ...this.details }
  }
}
