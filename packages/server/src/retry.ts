const MINUTE = 60_000;

/**
 * The wait after the n-th failed try of a job that retries (an order's mail, a DOI registration):
 * one minute, doubling, at most six hours.
 */
export function retryDelayMs(attempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, attempts - 1), 360 * MINUTE);
}
