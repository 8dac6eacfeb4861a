/** How long `until` waits unless told: the longest of the waits it replaced (200 probes 50 ms apart). */
export const UNTIL_TIMEOUT_MS = 10_000;

/** Time between probes. */
const INTERVAL_MS = 50;

/**
 * Probes until `ok` accepts the value, and gives that value: for what arrives in its own time (the
 * relay's answer, a feed event, a socket push) where a test has nothing to await. After `timeoutMs`
 * it throws, naming `what` and the last value probed.
 *
 * @example
 * const list = await until(() => messages(token, id), (list) => list.length >= 2, 'the answer');
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  timeoutMs = UNTIL_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${shortly(value)})`);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
}

/** The last value, short enough for an error message (and not JSON at all where it cannot be). */
function shortly(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
