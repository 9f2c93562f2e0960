/**
 * Options over their defaults: the one way the core applies defaults, as p-queue's
 * `options.ts` does. Each options interface documents every default on its field, a
 * `DEFAULT_…` object holds them, and an option passed as `undefined` keeps its default (so a
 * caller can forward an optional value without spreading conditionally).
 */
export function withDefaults<D extends object>(
  defaults: D,
  options: { [K in keyof D]?: D[K] | undefined } | undefined,
): D {
  const out = { ...defaults }
  if (!options) return out
  for (const key of Object.keys(defaults)) {
    if (!isKeyOf(defaults, key)) continue
    const value = options[key]
    if (value !== undefined) out[key] = value
  }
  return out
}

function isKeyOf<D extends object>(object: D, key: PropertyKey): key is keyof D {
  return Object.prototype.hasOwnProperty.call(object, key)
}
