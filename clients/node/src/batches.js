// Splits the items of a list command (units to add, attempts to finish) into commands that fit: Kafka refuses a
// record over its limit, and the app a command whose reply or events would be over it (`too_large`).

export const MAX_ITEMS = 1000;
export const MAX_BYTES = 256 * 1024;

/** Consecutive slices of `items`, in order, of at most MAX_ITEMS items and MAX_BYTES of JSON (an item over it alone). */
export function split(items) {
  const batches = [];
  let from = 0;
  let bytes = 0;
  for (let i = 0; i < items.length; i++) {
    const size = Buffer.byteLength(JSON.stringify(items[i]));
    if (i > from && (i - from === MAX_ITEMS || bytes + size > MAX_BYTES)) {
      batches.push(items.slice(from, i));
      from = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (from < items.length || items.length === 0) {
    batches.push(items.slice(from));
  }
  return batches;
}

/**
 * Sends one command per slice, each once the one before it was applied (a unit may name a parent of an earlier
 * slice), and merges the results. The first refusal rejects the whole; the slices before it stay applied.
 */
export async function inOrder(batches, send, merge) {
  let result = await send(batches[0]);
  for (const batch of batches.slice(1)) {
    result = merge(result, await send(batch));
  }
  return result;
}
