/** Guards for reading unknown data (parsed JSON, thrown values) without type casts. */

/** A plain object (not null, not an array): its fields can be read as `unknown`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The `code` of a Node system error (ENOENT, EPERM, …), or undefined. */
export function errorCode(error: unknown): string | undefined {
  return isRecord(error) && typeof error.code === 'string' ? error.code : undefined
}
