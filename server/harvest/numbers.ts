/** Numbers shown for the module's rows: derived from ids and dates, never stored twice. */
export function salesOrderNumber(id: number): string {
  return `XS${String(id).padStart(6, '0')}`;
}

/** A harvest batch: 采收 date and the row's id, e.g. PC20250915-000123 (unique because the id is). */
export function batchNumber(harvestedOn: string, id: number): string {
  return `PC${harvestedOn.replaceAll('-', '')}-${String(id).padStart(6, '0')}`;
}

export const GRADES = ['premium', 'first', 'second', 'offGrade'] as const;
export const INCOME_CATEGORIES = ['sales', 'subsidy', 'service', 'otherIncome'] as const;
export const EXPENSE_CATEGORIES = ['materials', 'labour', 'machinery', 'land', 'utilities', 'transport', 'otherExpense'] as const;
