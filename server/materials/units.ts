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

const scales = () => `(VALUES ${UNIT_SCALES.map(([u, f, s]) => `('${u}', '${f}', ${s}::numeric)`).join(', ')}) v(unit, family, scale)`;
const family = (unit: string) => `(SELECT v.family FROM ${scales()} WHERE v.unit = ${unit})`;
const scale = (unit: string) => `(SELECT v.scale FROM ${scales()} WHERE v.unit = ${unit})`;

/**
 * A SQL expression: how many `to` units one `from` unit makes, or NULL when it cannot be
 * told — the same unit; a mass or volume of the same family; or through a package's content
 * (`content` `contentUnit` in one package), in either direction (克 → 袋 of 100 克, 袋 → 克).
 * The arguments are SQL expressions of the query (columns, JSON fields).
 */
export function unitFactorSql(from: string, to: string, content: string, contentUnit: string): string {
  return `CASE WHEN ${from} = ${to} THEN 1::numeric
            WHEN ${family(from)} = ${family(to)} THEN ${scale(from)} / ${scale(to)}
            WHEN ${content} > 0 AND ${contentUnit} = ${to} THEN ${content}
            WHEN ${content} > 0 AND ${family(contentUnit)} = ${family(to)} THEN ${content} * ${scale(contentUnit)} / ${scale(to)}
            WHEN ${content} > 0 AND ${contentUnit} = ${from} THEN 1 / ${content}
            WHEN ${content} > 0 AND ${family(contentUnit)} = ${family(from)} THEN ${scale(from)} / ${scale(contentUnit)} / ${content}
       END`;
}
