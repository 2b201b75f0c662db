/**
 * The trace reports as files (issue 25 item 3): the electronic sortable spreadsheet FSMA 204
 * asks for within 24 hours of a request, one row per critical tracking event with its key
 * data elements, as CSV (through the project's neutraliser, runtime/format/csv.ts: a cell a
 * spreadsheet would evaluate is written as text) or XLSX (write-excel-file, the writer the
 * console's exports use; every text cell typed String, so never evaluated). Headers and the
 * event names are in the caller's language; codes (lot codes, document numbers) as they are.
 */
import writeXlsxFile from 'write-excel-file/node';
import { csvDocument, type CsvValue } from '../../runtime/format/csv.ts';
import type { Lang } from '../i18n/lang.ts';
import type { TraceEventRow } from './lot-trace.ts';

type Texts = Record<Lang, string>;

const COLUMNS: { key: keyof TraceEventRow; title: Texts }[] = [
  { key: 'step', title: { zh: '方向', en: 'Step', es: 'Paso' } },
  { key: 'event', title: { zh: '关键追溯事件（CTE）', en: 'Critical tracking event (CTE)', es: 'Evento crítico de trazabilidad (CTE)' } },
  { key: 'date', title: { zh: '日期', en: 'Date', es: 'Fecha' } },
  { key: 'traceabilityLotCode', title: { zh: '追溯批号（TLC）', en: 'Traceability lot code (TLC)', es: 'Código de lote (TLC)' } },
  { key: 'product', title: { zh: '产品 / 投入品', en: 'Product / input', es: 'Producto / insumo' } },
  { key: 'quantity', title: { zh: '数量', en: 'Quantity', es: 'Cantidad' } },
  { key: 'unit', title: { zh: '单位', en: 'Unit of measure', es: 'Unidad' } },
  { key: 'location', title: { zh: '地点', en: 'Location', es: 'Lugar' } },
  { key: 'counterparty', title: { zh: '来源 / 去向', en: 'Source / recipient', es: 'Origen / destinatario' } },
  { key: 'contact', title: { zh: '联系电话', en: 'Contact', es: 'Contacto' } },
  { key: 'referenceType', title: { zh: '单据类型', en: 'Reference document type', es: 'Tipo de documento' } },
  { key: 'reference', title: { zh: '单据号', en: 'Reference document number', es: 'Número de documento' } },
  { key: 'sourceReference', title: { zh: '来源单据 / 批号', en: 'Source reference', es: 'Referencia de origen' } },
  { key: 'status', title: { zh: '状态', en: 'Status', es: 'Estado' } },
];

const WORDS: Record<string, Texts> = {
  back: { zh: '向后一步', en: 'Step back', es: 'Paso atrás' },
  lot: { zh: '本批次', en: 'This lot', es: 'Este lote' },
  forward: { zh: '向前一步', en: 'Step forward', es: 'Paso adelante' },
  receiving: { zh: '收货（入库）', en: 'Receiving', es: 'Recepción' },
  inputApplied: { zh: '施用投入品', en: 'Input applied', es: 'Insumo aplicado' },
  harvesting: { zh: '采收', en: 'Harvesting', es: 'Cosecha' },
  shipping: { zh: '销售发货', en: 'Shipping', es: 'Envío' },
  onHand: { zh: '仍在库', en: 'On hand', es: 'En almacén' },
  stockIn: { zh: '入库单', en: 'Stock-in', es: 'Entrada' },
  stockOut: { zh: '出库单', en: 'Stock-out', es: 'Salida' },
  batch: { zh: '采收批次', en: 'Harvest batch', es: 'Lote de cosecha' },
  salesOrder: { zh: '销售单', en: 'Sales order', es: 'Pedido de venta' },
  confirmed: { zh: '已确认', en: 'Confirmed', es: 'Confirmado' },
  cancelled: { zh: '已作废', en: 'Cancelled', es: 'Anulado' },
  recalled: { zh: '已召回', en: 'Recalled', es: 'Retirado' },
};

const WORDED = new Set<keyof TraceEventRow>(['step', 'event', 'referenceType', 'status']);

function cell(r: TraceEventRow, key: keyof TraceEventRow, lang: Lang): string | number | null {
  const v = r[key];
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  return WORDED.has(key) ? (WORDS[v]?.[lang] ?? v) : v;
}

export type ExportFormat = 'csv' | 'xlsx';

export async function traceFile(rows: TraceEventRow[], lang: Lang, format: ExportFormat): Promise<{ body: string | Buffer; contentType: string }> {
  if (format === 'csv') {
    const lines: CsvValue[][] = [COLUMNS.map((c) => c.title[lang]), ...rows.map((r) => COLUMNS.map((c) => cell(r, c.key, lang)))];
    return { body: csvDocument(lines), contentType: 'text/csv; charset=utf-8' };
  }
  const header = COLUMNS.map((c) => ({ value: c.title[lang], fontWeight: 'bold' as const }));
  const body = rows.map((r) =>
    COLUMNS.map((c) => {
      const v = cell(r, c.key, lang);
      return v === null ? null : typeof v === 'number' ? { value: v, type: Number } : { value: v, type: String };
    }),
  );
  const buffer = await writeXlsxFile([header, ...body], { columns: COLUMNS.map((c) => ({ width: c.key === 'location' || c.key === 'counterparty' ? 28 : 16 })) }).toBuffer();
  return { body: buffer, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
}

/** A file name of ASCII characters (the lot code kept when it is plain). */
export function traceFileName(kind: 'lot' | 'material-lot', code: string, format: ExportFormat): string {
  const safe = code.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'lot';
  return `fsma204-${kind}-${safe}.${format}`;
}
