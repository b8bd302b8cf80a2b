/** Waits (polling every 20 ms) until `ok()` holds; throws `timed out waiting for WHAT` after `ms` (default 5 s). */
export async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
