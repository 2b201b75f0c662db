/**
 * Failed logins to the embedded broker's TCP port, per remote address (docs/devices.md,
 * "Broker"): after MAX_FAILURES within WINDOW_MS an address is refused without its
 * password being looked at until the window has passed. Guessing a gateway's password
 * then costs a minute per five tries instead of the hundred a second the issue measured.
 * The client id is not the key: a guesser changes it at will; the address it cannot.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 60_000;

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  /** Attempts refused because their address was throttled. */
  throttled = 0;

  constructor(public now: () => number = () => Date.now()) {}

  private recent(address: string): number[] {
    const since = this.now() - WINDOW_MS;
    const kept = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(address, kept);
    else this.failures.delete(address);
    return kept;
  }

  /** Whether an attempt from `address` is refused before its credentials are checked. */
  blocked(address: string): boolean {
    const hit = this.recent(address).length >= MAX_FAILURES;
    if (hit) this.throttled++;
    return hit;
  }

  failed(address: string): void {
    this.failures.set(address, [...this.recent(address), this.now()]);
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }
}

/** A loopback address (or none: an in-process connection of the server or the simulator). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return true;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
