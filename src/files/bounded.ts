// File-system work over many paths, a few at a time: a request naming 10,000 files must not
// open 10,000 descriptors at once (EMFILE) nor stall every other request.

export const FS_CONCURRENCY = 16;

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapBounded<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = FS_CONCURRENCY): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
