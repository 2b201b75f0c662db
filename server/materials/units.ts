/**
 * Units a plan amount can be converted between without knowing the material: masses and
 * volumes, each as a multiple of its family's base (公斤, 升). A catalogue material in
 * packages (袋, 瓶) says what one holds (`contentPerUnit` `contentUnit`, e.g. 40 公斤); the
 * requirement list converts a plan's 克 to the catalogue's 袋 through both (docs/materials.md).
 */
export const UNIT_SCALES: readonly (readonly [unit: string, family: 'mass' | 'volume', scale: number])[] = [
  ['克', 'mass', 0.001],
  ['g', 'mass', 0.001],
  ['千克', 'mass', 1],
  ['公斤', 'mass', 1],
  ['kg', 'mass', 1],
  ['斤', 'mass', 0.5],
  ['吨', 'mass', 1000],
  ['t', 'mass', 1000],
  ['毫升', 'volume', 0.001],
  ['ml', 'volume', 0.001],
  ['mL', 'volume', 0.001],
  ['升', 'volume', 1],
  ['L', 'volume', 1],
];

/** The scales as a SQL VALUES list `(unit, family, scale)`, for joining in a query. */
export function unitScalesSql(): string {
  return UNIT_SCALES.map(([u, f, s]) => `('${u}', '${f}', ${s}::numeric)`).join(', ');
}
