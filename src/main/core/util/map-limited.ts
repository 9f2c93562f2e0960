/**
 * `fn` over `items`, at most `width` at a time, the results in the items' order. For reads of
 * many files: the thread pool reads and decompresses some while the main thread parses others,
 * and thousands of them never wait on the pool at once.
 */
export async function mapLimited<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker))
  return out
}
