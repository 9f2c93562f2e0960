/** Types of dead-exports.mjs for its spec. */
export function deadExports(options: { root: string; checked?: string[]; consumers?: string[] }): string[]
