/**
 * Line totals of line items (`items.lineTotal`, docs/schema-language.md): quantity × unit
 * price per row, rounded to the fen half away from zero as the database's `round(q × p, 2)`
 * does, and the sum of the rounded rows — exact: the numbers are read as decimal text and
 * multiplied as scaled integers, never as binary floating point (0.1 × 3 is 0.30).
 */

/** A decimal (number or numeric text) as a scaled integer: [digits, scale]; null when not a plain decimal. */
function scaled(v: unknown): [bigint, number] | null {
  const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : typeof v === 'string' ? v.trim() : '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[3] ?? '';
  const n = BigInt(`${m[2]}${frac}`);
  return [m[1] ? -n : n, frac.length];
}

/** Fen (hundredths) as text with two decimals: 1234n → "12.34". */
function fenText(fen: bigint): string {
  const neg = fen < 0n;
  const abs = neg ? -fen : fen;
  const s = abs.toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

/** quantity × unit price in fen, rounded half away from zero; null when either is missing or not a number. */
export function lineAmountFen(quantity: unknown, unitPrice: unknown): bigint | null {
  const q = scaled(quantity);
  const p = scaled(unitPrice);
  if (!q || !p) return null;
  const product = q[0] * p[0];
  const scale = q[1] + p[1];
  if (scale <= 2) return product * 10n ** BigInt(2 - scale);
  const div = 10n ** BigInt(scale - 2);
  const half = div / 2n;
  return product >= 0n ? (product + half) / div : -((-product + half) / div);
}

/** The row's amount as text with two decimals ("3255.00"), or null. */
export function lineAmount(quantity: unknown, unitPrice: unknown): string | null {
  const fen = lineAmountFen(quantity, unitPrice);
  return fen === null ? null : fenText(fen);
}

/** The sum of the rows' rounded amounts (rows without both values count nothing), two decimals. */
export function linesTotal(rows: unknown, quantity: string, unitPrice: string): string {
  let sum = 0n;
  if (Array.isArray(rows))
    for (const row of rows) {
      if (!row || typeof row !== 'object') continue;
      const r = row as Record<string, unknown>;
      sum += lineAmountFen(r[quantity], r[unitPrice]) ?? 0n;
    }
  return fenText(sum);
}
