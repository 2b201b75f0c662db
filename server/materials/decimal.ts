/**
 * Exact comparisons of decimal quantities as the database returns them ("12.500") and as
 * the body carries them (numbers printed by JavaScript's shortest round-trip form), so a
 * check never goes through binary floating point.
 */
const SCALE = 6;

function scaled(value: string | number): bigint {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const fraction = (m[3] ?? '').padEnd(SCALE, '0').slice(0, SCALE);
  const n = BigInt(m[2] + fraction);
  return m[1] ? -n : n;
}

function fromScaled(n: bigint): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(SCALE + 1, '0');
  const whole = digits.slice(0, -SCALE);
  const fraction = digits.slice(-SCALE).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A number as plain decimal text, never in exponent form (1e-7 is "0.0000001"). */
export function numberText(n: number): string {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** Digits after the point of a number as a user typed it. */
export function decimalPlaces(n: number): number {
  const text = numberText(n);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

export function compareDecimal(a: string | number, b: string | number): number {
  const x = scaled(a);
  const y = scaled(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function subtractDecimal(a: string | number, b: string | number): string {
  return fromScaled(scaled(a) - scaled(b));
}

export function addDecimal(a: string | number, b: string | number): string {
  return fromScaled(scaled(a) + scaled(b));
}
