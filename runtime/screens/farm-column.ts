import type { GridColumn, GridRow } from './DataGrid.tsx';

/**
 * The column naming each row's farm, for a list whose reply spans more than one farm
 * (`spansFarms` in the page reply): a provider's or a center's list would otherwise show
 * two farms' rows as duplicates. It goes second, beside the column that names the row,
 * unless the document already shows the farm itself.
 */
export function withFarmColumn(columns: GridColumn[], spansFarms: boolean, title: string): GridColumn[] {
  if (!spansFarms || columns.some((c) => c.id === 'farmName' || c.id === 'farmId')) return columns;
  const farm: GridColumn = { id: 'farmName', title, width: 140, ellipsis: true, text: (r: GridRow) => (typeof r.farmName === 'string' ? r.farmName : '') };
  return [...columns.slice(0, 1), farm, ...columns.slice(1)];
}
