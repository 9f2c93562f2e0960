/**
 * A provider's refusal of a method itself (not of this call's input): "method not found",
 * "not supported on your plan", "not available on the Free tier - upgrade". Read by the trace
 * reader (a refusal is learnt) and by the transport (such a refusal sent with HTTP 403 is the
 * call's answer, not a rejected key).
 */
const METHOD_REFUSAL_CODES = new Set([-32601, -32004])
const METHOD_REFUSAL_WORDS =
  /method not found|does not exist|not (supported|available|enabled|allowed|whitelisted)|unsupported|upgrade|your plan|tier|disabled/i

export function isMethodRefusal(error: { code: number; message: string }): boolean {
  return METHOD_REFUSAL_CODES.has(error.code) || METHOD_REFUSAL_WORDS.test(error.message)
}
