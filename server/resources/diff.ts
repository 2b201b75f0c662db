export type Diff = Record<string, { from: unknown; to: unknown }>;

/**
 * Property-level changes between two versions of a record (null for "did not exist").
 * Values compare by content: JSONB stores object keys in its own order, so a nested
 * object read back differs from the one posted only in key order, which is no change.
 */
export function diffRecords(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Diff {
  const out: Diff = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of [...keys].sort()) {
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (canonical(from) !== canonical(to)) out[key] = { from, to };
  }
  return out;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
