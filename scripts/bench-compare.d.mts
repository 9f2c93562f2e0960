/** Types of bench-compare.mjs for its spec. */
export function numbersOf(stdout: string): [string, number][]
export function median(xs: number[]): number
export function summary(runs: { base: Map<string, number[]>; head: Map<string, number[]> }, rounds: number): string[]
