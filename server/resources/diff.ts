export type Diff = Record<string, { from: unknown; to: unknown }>;

/** Property-level changes between two versions of a record (null for "did not exist"). */
export function diffRecords(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Diff {
  const out: Diff = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of [...keys].sort()) {
    const from = before?.[key] ?? null;
    const to = after?.[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[key] = { from, to };
  }
  return out;
}
