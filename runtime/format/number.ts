/** Suffixes of spec section 9, largest first. */
const SI: readonly { value: number; symbol: string }[] = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
];

/**
 * 1234 → '1.2k', 5_000_000 → '5M', 999 → '999': the number formatter of spec section 9.
 * Trailing zeros of the fraction are dropped ('5.0M' reads '5M'); negative numbers keep
 * their sign; numbers below 1000 are shown as they are.
 */
export function formatNumber(num: number, digits = 1): string {
  if (!Number.isFinite(num)) return String(num);
  const abs = Math.abs(num);
  for (const { value, symbol } of SI) {
    if (abs >= value) {
      const scaled = (abs / value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1');
      return `${num < 0 ? '-' : ''}${scaled}${symbol}`;
    }
  }
  return String(num);
}

/** 1234567.5 → '1,234,567.5': thousands separators on the integer part only. */
export function toThousands(num: number): string {
  if (!Number.isFinite(num)) return String(num);
  const [int, frac] = String(num).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}
