/** The number a movement is shown by: 入库 RK…, 出库 CK…, then its id on six digits. */
export function movementNumber(direction: 'in' | 'out', id: number): string {
  return `${direction === 'in' ? 'RK' : 'CK'}${String(id).padStart(6, '0')}`;
}
