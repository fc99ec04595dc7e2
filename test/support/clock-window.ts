/**
 * Our budgets count in fixed windows on the clock (a minute, an hour): a test that spends one and
 * reads what is left must not straddle a window's end, where the budget is whole again. Waits,
 * when less than `needMs` of the current window is left, until the next one begins.
 */
export async function insideOneClockWindow(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
