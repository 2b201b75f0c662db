/**
 * The 合格证 label sheet of trace codes (issue 25 item 5; docs/harvest-sales-trace.md, "Label
 * sheet"): A4, 2 × 5 labels of 95 × 55 mm, each with the 合格证 fields (product, producer,
 * batch, harvest date, the producer's commitment) and the QR of `PUBLIC_BASE_URL/t/<code>`;
 * as an HTML page that prints cleanly from the browser and as a PDF made here (pdfkit, with
 * the Noto Sans SC font of an npm package embedded as a subset).
 *
 * The console opens both in a new tab, where no Authorization header travels: the caller asks
 * for a **print ticket** first (`POST …/labelSheets`, checked like every API call: the trace
 * menu with its `:export` code, the codes of the caller's farms, none recalled, a public
 * address configured), and the tab opens `GET …/labelSheet?t=<ticket>` (or `…/labelSheet/pdf`).
 * The ticket is signed by the server (HMAC-SHA256, a key kept in `settings`, so every instance
 * on one database accepts it), lives ten minutes, names the user and the session it was made
 * in, and is checked again when used: the session still valid, the user still holding the code,
 * the codes still theirs. Nothing is stored.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { can } from '../../runtime/access/can.ts';
import type { Database, Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { defineMessages, t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import { loadSessionUser, type SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okObject } from '../admin/schemas.ts';
import { escapeHtml, NO_PUBLIC_URL, traceUrl } from './trace-page.ts';
import { applicationsBefore } from './safety.ts';

/** The menu whose `:export` code prints labels (the trace-code list's). */
export const LABEL_MENU = 'trackInfoManageIndex';
export const LABEL_ACTION = 'export';

/** The sheet: A4 portrait, 2 columns × 5 rows of 95 × 55 mm labels, 10 mm side and 11 mm top margins. */
export const SHEET = { columns: 2, rows: 5, labelWidthMm: 95, labelHeightMm: 55, marginLeftMm: 10, marginTopMm: 11 } as const;
export const LABELS_PER_PAGE = SHEET.columns * SHEET.rows;
/** At most this many codes in one sheet, and this many labels in all. */
export const MAX_CODES = 50;
export const MAX_LABELS = 500;
export const TICKET_TTL_SECONDS = 600;

type Texts = Record<Lang, string>;

export const msg = defineMessages({
  'labels.noPublicUrl': NO_PUBLIC_URL,
  'labels.recalled': {
    zh: '批次 {batch} 已召回，不能再打印合格证',
    en: 'Batch {batch} has been recalled; no certificate can be printed for it',
    es: 'El lote {batch} ha sido retirado; no se pueden imprimir certificados para él',
  },
  'labels.tooMany': {
    zh: '一次最多打印 {max} 张标签（{codes} 个追溯码 × {copies} 张 = {total} 张）',
    en: 'At most {max} labels at once ({codes} codes × {copies} copies = {total})',
    es: 'Como máximo {max} etiquetas a la vez ({codes} códigos × {copies} copias = {total})',
  },
  'labels.insideInterval': {
    zh: '批次 {batch} 是在农药安全间隔期内采收的；本批次采收后的农残检测合格之前，不能打印承诺“残留不超标”的合格证',
    en: 'Batch {batch} was harvested inside a pesticide’s safety interval; no certificate promising residues within the limits can be printed before a passing residue test of this batch after its harvest',
    es: 'El lote {batch} se cosechó dentro del plazo de seguridad de un plaguicida; no se puede imprimir un certificado que prometa residuos dentro de los límites antes de un análisis de residuos conforme de este lote posterior a la cosecha',
  },
  'labels.noCode': { zh: '请选择至少一个追溯码', en: 'Choose at least one trace code', es: 'Elija al menos un código' },
});

/** What the label says, in the user's language. */
const L = {
  title: { zh: '食用农产品合格证', en: 'Edible farm product certificate', es: 'Certificado de producto agrícola' },
  product: { zh: '产品', en: 'Product', es: 'Producto' },
  producer: { zh: '生产者', en: 'Producer', es: 'Productor' },
  address: { zh: '地址', en: 'Address', es: 'Dirección' },
  phone: { zh: '联系电话', en: 'Phone', es: 'Teléfono' },
  batch: { zh: '批次', en: 'Batch', es: 'Lote' },
  harvested: { zh: '采收日期', en: 'Harvested on', es: 'Cosechado el' },
  scan: { zh: '扫码查看追溯信息', en: 'Scan to trace', es: 'Escanee para trazar' },
  /** The producer's commitment of the 合格证 (承诺). */
  promise: {
    zh: '我承诺对生产销售的食用农产品：✓ 不使用禁用农药兽药、停用兽药和非法添加物　✓ 常规农药兽药残留不超标　✓ 对承诺的真实性负责',
    en: 'I promise that the edible farm products I produce and sell: ✓ use no banned pesticides or veterinary drugs, no suspended veterinary drugs and no illegal additives; ✓ keep residues of conventional pesticides and veterinary drugs within the limits; ✓ and I answer for the truth of this promise.',
    es: 'Me comprometo a que los productos agrícolas comestibles que produzco y vendo: ✓ no usan plaguicidas ni medicamentos veterinarios prohibidos o suspendidos, ni aditivos ilegales; ✓ no superan los límites de residuos de plaguicidas y medicamentos veterinarios habituales; ✓ y respondo de la veracidad de este compromiso.',
  },
  sheetTitle: { zh: '合格证标签', en: 'Certificate labels', es: 'Etiquetas de certificado' },
  howToPrint: {
    zh: '{labels} 张标签，共 {pages} 页 A4（每页 2 × 5 张，每张 95 × 55 毫米，沿虚线裁切）。打印时请选择 A4 纸、100% 缩放（不要“适合页面”），并关闭页眉和页脚。',
    en: '{labels} labels; A4 pages: {pages} (2 × 5 a page, 95 × 55 mm each; cut along the dashed lines). Print on A4 at 100 % scale (not “fit to page”), without headers and footers.',
    es: '{labels} etiquetas; páginas A4: {pages} (2 × 5 por página, 95 × 55 mm cada una; recorte por las líneas discontinuas). Imprima en A4 al 100 % (no «ajustar a la página») y sin encabezados ni pies de página.',
  },
  pdf: { zh: '下载 PDF', en: 'Download the PDF', es: 'Descargar el PDF' },
  expired: {
    zh: '这个打印链接已过期或无效（打印链接 10 分钟内有效）。请回到控制台的追溯信息列表重新打开。',
    en: 'This print link has expired or is not valid (print links last 10 minutes). Open it again from the trace code list of the console.',
    es: 'Este enlace de impresión ha caducado o no es válido (duran 10 minutos). Vuelva a abrirlo desde la lista de códigos de la consola.',
  },
  forbidden: {
    zh: '您没有打印合格证的权限（需要“追溯信息”的导出权限）。',
    en: 'You may not print certificates (the trace code list’s export code is needed).',
    es: 'No tiene permiso para imprimir certificados (hace falta el código de exportación de la lista de códigos).',
  },
  missing: {
    zh: '没有找到这些追溯码，或它们不属于您的农场。',
    en: 'These trace codes were not found, or are not of your farm.',
    es: 'No se encontraron estos códigos, o no son de su granja.',
  },
} satisfies Record<string, Texts>;

/** One code's label. */
export interface Label {
  code: string;
  batchNo: string;
  harvestedOn: string;
  crop: string | null;
  variety: string | null;
  farm: string;
  address: string | null;
  phone: string | null;
  recalled: boolean;
  /** Harvested inside a pesticide's safety interval, and no passing residue test of the batch dated on or after its harvest. */
  unreleased: boolean;
}

/** The labels of `codes` among the caller's farms (the strict write scope: a 合格证 is its producer's act), in the order asked. */
export async function labelsOf(db: Queryable, user: SessionUser, codes: string[]): Promise<Label[]> {
  const p = new Params();
  const { rows } = await db.query<{ code: string; harvest_id: string; group_id: string; farm_id: number; batch_no: string; harvested_on: string; crop: string | null; variety: string | null; farm: string; address: string | null; phone: string | null; recalled: boolean; own_pass: boolean }>(
    `SELECT c.code, h.id AS harvest_id, h.group_id, h.farm_id, h.batch_no, h.harvested_on::text,
            EXISTS (SELECT 1 FROM resource_records q WHERE q.resource = 'qualityRecords' AND q.farm_id = h.farm_id AND (q.data->>'harvestId')::bigint = h.id
                       AND q.data->>'kind' = 'residueTest' AND q.data->>'conclusion' = 'pass' AND (q.data->>'testedOn')::date >= h.harvested_on) AS own_pass, o.name AS farm, nullif(trim(o.address), '') AS address, nullif(trim(o.phone), '') AS phone, h.recalled_at IS NOT NULL AS recalled,
            (SELECT x.data->>'name' FROM resource_records x WHERE x.resource = 'crops' AND x.id = (g.data->>'cropId')::bigint) AS crop,
            (SELECT x.data->>'name' FROM resource_records x WHERE x.resource = 'cropSubtype' AND x.id = (g.data->>'cropSubtypeId')::bigint) AS variety
       FROM trace_codes c JOIN harvests h ON h.id = c.harvest_id JOIN organisations o ON o.id = h.farm_id
       LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE c.code = ANY(${p.add(codes)}::text[]) AND ${farmScope(user, p, 'c.farm_id')}`,
    p.values,
  );
  const byCode = new Map(rows.map((r) => [r.code, r]));
  // The safety check the public page and the harvest list make (safety.ts): a batch harvested
  // inside an interval cannot carry the promise «残留不超标» until its own test after harvest passed.
  const applied = await applicationsBefore(db, rows.map((r) => ({ key: Number(r.harvest_id), groupId: Number(r.group_id), farmId: r.farm_id, harvestedOn: r.harvested_on })));
  return codes.flatMap((code) => {
    const r = byCode.get(code);
    if (!r) return [];
    const inside = (applied.get(Number(r.harvest_id)) ?? []).some((a) => a.status === 'inside');
    return [{ code, batchNo: r.batch_no, harvestedOn: r.harvested_on, crop: r.crop, variety: r.variety, farm: r.farm, address: r.address, phone: r.phone, recalled: r.recalled, unreleased: inside && !r.own_pass }];
  });
}

// ---------------------------------------------------------------------------------------------
// Tickets

interface Ticket {
  /** user, the session's token id and epoch */
  u: number;
  j: string;
  e: number;
  /** codes and copies of each */
  c: string[];
  n: number;
  /** expiry, Unix seconds */
  x: number;
  /** the console's language when the ticket was made: the sheet's (a new tab carries the browser's Accept-Language, not the console's choice) */
  l?: Lang;
}

const keys = new WeakMap<object, Buffer>();

/** The signing key: made once per database and kept in `settings`, so that every instance on it agrees. */
async function ticketKey(db: Database): Promise<Buffer> {
  const known = keys.get(db);
  if (known) return known;
  await db.query(`INSERT INTO settings(key, value) VALUES ('label_sheet_key', $1) ON CONFLICT (key) DO NOTHING`, [randomBytes(32).toString('base64url')]);
  const { rows } = await db.query<{ value: string }>(`SELECT value FROM settings WHERE key = 'label_sheet_key'`);
  const key = Buffer.from(rows[0].value, 'base64url');
  keys.set(db, key);
  return key;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export async function signTicket(db: Database, ticket: Ticket): Promise<string> {
  const body = b64(JSON.stringify(ticket));
  return `${body}.${b64(createHmac('sha256', await ticketKey(db)).update(body).digest())}`;
}

/** The ticket's content when its signature holds and it has not expired, else null. */
export async function readTicket(db: Database, value: string, now = Date.now()): Promise<Ticket | null> {
  const [body, sig, extra] = value.split('.');
  if (!body || !sig || extra !== undefined) return null;
  const expected = createHmac('sha256', await ticketKey(db)).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const ticket = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Ticket;
    if (typeof ticket.x !== 'number' || ticket.x * 1000 < now) return null;
    return ticket;
  } catch {
    return null;
  }
}

/** The user behind a ticket, when the session it was made in is still valid (not logged out, no epoch change) and the user enabled. */
async function ticketUser(db: Database, ticket: Ticket): Promise<SessionUser | null> {
  const { rows } = await db.query<{ current: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $1) AND EXISTS (SELECT 1 FROM users WHERE id = $2 AND token_epoch = $3) AS current`,
    [ticket.j, ticket.u, ticket.e],
  );
  if (!rows[0]?.current) return null;
  const user = await loadSessionUser(db, { id: ticket.u });
  return user && user.status === 1 ? user : null;
}

// ---------------------------------------------------------------------------------------------
// QR images

/**
 * The QR of `text` as an 8-bit greyscale PNG without alpha (`scale` pixels a module, a quiet
 * zone of `margin` modules): pdfkit embeds such a PNG's pixel data as it is, without decoding it.
 */
export function qrPng(text: string, scale = 6, margin = 2): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const size = (n + 2 * margin) * scale;
  const raw = Buffer.alloc((size + 1) * size, 255);
  for (let y = 0; y < size; y += 1) {
    const row = y * (size + 1);
    raw[row] = 0; // filter: none
    const my = Math.floor(y / scale) - margin;
    if (my < 0 || my >= n) continue;
    for (let x = 0; x < size; x += 1) {
      const mx = Math.floor(x / scale) - margin;
      if (mx >= 0 && mx < n && modules.data[my * n + mx]) raw[row + 1 + x] = 0;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// ---------------------------------------------------------------------------------------------
// The sheet as HTML

const productOf = (l: Label) => (l.crop ? (l.variety ? `${l.crop}（${l.variety}）` : l.crop) : '—');
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_m, k: string) => String(values[k] ?? ''));

/** The labels in print order: each code `copies` times, each code starting a page of its own. */
function pagesOf(labels: Label[], copies: number): Label[][] {
  const pages: Label[][] = [];
  for (const label of labels) {
    const all = Array.from({ length: copies }, () => label);
    for (let i = 0; i < all.length; i += LABELS_PER_PAGE) pages.push(all.slice(i, i + LABELS_PER_PAGE));
  }
  return pages;
}

const STYLE = `@page{size:A4 portrait;margin:0}
*{box-sizing:border-box}html,body{margin:0;padding:0}
body{background:#e6e9e4;color:#000;font:8pt/1.3 "Noto Sans SC","Source Han Sans SC","PingFang SC","Microsoft YaHei",sans-serif}
.bar{max-width:210mm;margin:12px auto;padding:10px 14px;background:#fff;border-radius:6px;font-size:14px;line-height:1.5}
.bar h1{font-size:16px;margin:0 0 4px}
.sheet{width:210mm;height:297mm;margin:0 auto 12px;padding:${SHEET.marginTopMm}mm ${SHEET.marginLeftMm}mm;background:#fff;display:grid;grid-template-columns:repeat(${SHEET.columns},${SHEET.labelWidthMm}mm);grid-template-rows:repeat(${SHEET.rows},${SHEET.labelHeightMm}mm);overflow:hidden;break-after:page;page-break-after:always}
.sheet:last-of-type{break-after:auto;page-break-after:auto}
.label{border:.25mm dashed #8c8c8c;padding:2.5mm 3mm;overflow:hidden;display:grid;grid-template-columns:1fr 25mm;grid-template-rows:auto 1fr auto;column-gap:2mm}
.label h2{grid-column:1/3;margin:0 0 1.2mm;font-size:10.5pt;line-height:1.2;text-align:center}:lang(zh) .label h2{letter-spacing:.08em}
.label dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:.3mm 1.5mm;align-content:start;min-width:0}
.label dt{color:#333;white-space:nowrap}.label dd{margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.qr{text-align:center;font-size:6.5pt;line-height:1.2}.qr svg{display:block;width:25mm;height:25mm}
.code{display:block;font:bold 8pt/1.3 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.04em}
.promise{grid-column:1/3;margin:1mm 0 0;padding-top:.8mm;border-top:.2mm solid #999;font-size:6.3pt;line-height:1.3}
:lang(en) .promise,:lang(es) .promise{font-size:5.6pt;line-height:1.25}
@media print{body{background:none}.bar{display:none}.sheet{margin:0}}`;

export function renderLabelSheetHtml(labels: Label[], copies: number, base: string, lang: Lang, pdfUrl: string, qrSvgs: Map<string, string>): string {
  const e = escapeHtml;
  const pages = pagesOf(labels, copies);
  const count = pages.reduce((n, p) => n + p.length, 0);
  const label = (l: Label) => `<article class="label" data-code="${e(l.code)}">
<h2>${L.title[lang]}</h2>
<dl><dt>${L.product[lang]}</dt><dd>${e(productOf(l))}</dd>
<dt>${L.producer[lang]}</dt><dd>${e(l.farm)}</dd>
${l.address ? `<dt>${L.address[lang]}</dt><dd>${e(l.address)}</dd>` : ''}${l.phone ? `<dt>${L.phone[lang]}</dt><dd>${e(l.phone)}</dd>` : ''}
<dt>${L.batch[lang]}</dt><dd>${e(l.batchNo)}</dd>
<dt>${L.harvested[lang]}</dt><dd>${e(l.harvestedOn)}</dd></dl>
<div class="qr" title="${e(traceUrl(base, l.code))}">${qrSvgs.get(l.code) ?? ''}<span class="code">${e(l.code)}</span>${L.scan[lang]}</div>
<p class="promise">${e(L.promise[lang])}</p>
</article>`;
  const htmlLang = lang === 'zh' ? 'zh-CN' : lang;
  const batches = [...new Set(labels.map((l) => l.batchNo))].join(', ');
  return `<!doctype html><html lang="${htmlLang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${e(`${L.sheetTitle[lang]} · ${batches}`)}</title><style>${STYLE}</style></head><body>
<div class="bar" role="note"><h1>${L.sheetTitle[lang]} · ${e(batches)}</h1><p>${e(fill(L.howToPrint[lang], { labels: count, pages: pages.length }))}</p><p><a href="${e(pdfUrl)}">${L.pdf[lang]}</a></p></div>
${pages.map((p) => `<section class="sheet">${p.map(label).join('')}</section>`).join('\n')}
</body></html>`;
}

// ---------------------------------------------------------------------------------------------
// The sheet as PDF

const require = createRequire(import.meta.url);
/**
 * Noto Sans SC (SIL Open Font License) from the npm package @expo-google-fonts/noto-sans-sc:
 * CJK, Latin with the accents of Spanish, and the check mark; pdfkit embeds only the glyphs a
 * document uses. Read once, on the first PDF.
 */
const FONT_FILES = { regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf' } as const;
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function fontFiles() {
  fonts ??= { regular: readFileSync(require.resolve(FONT_FILES.regular)), bold: readFileSync(require.resolve(FONT_FILES.bold)) };
  return fonts;
}

const MM = 72 / 25.4;

export async function renderLabelSheetPdf(labels: Label[], copies: number, base: string, lang: Lang): Promise<Buffer> {
  const { regular, bold } = fontFiles();
  const doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false, info: { Title: `${L.sheetTitle[lang]} · ${[...new Set(labels.map((l) => l.batchNo))].join(', ')}`, Creator: 'farm-backoffice' }, lang: lang === 'zh' ? 'zh-CN' : lang });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  doc.registerFont('text', regular);
  doc.registerFont('bold', bold);
  const pngs = new Map(labels.map((l) => [l.code, qrPng(traceUrl(base, l.code))]));
  const w = SHEET.labelWidthMm * MM;
  const h = SHEET.labelHeightMm * MM;
  const pad = { x: 3 * MM, y: 2.5 * MM };
  const qrSize = 25 * MM;
  for (const page of pagesOf(labels, copies)) {
    doc.addPage({ size: 'A4', margin: 0 });
    page.forEach((l, i) => {
      const x = SHEET.marginLeftMm * MM + (i % SHEET.columns) * w;
      const y = SHEET.marginTopMm * MM + Math.floor(i / SHEET.columns) * h;
      // The cut line.
      doc.save().lineWidth(0.7).dash(2.5, { space: 2 }).strokeColor('#8c8c8c').rect(x, y, w, h).stroke().restore();
      const inner = w - 2 * pad.x;
      doc.fillColor('#000').font('bold').fontSize(10.5).text(L.title[lang], x + pad.x, y + pad.y, { width: inner, align: 'center', lineBreak: false, ellipsis: true, characterSpacing: lang === 'zh' ? 0.8 : 0 });
      const textWidth = inner - qrSize - 2 * MM;
      const top = y + pad.y + 15;
      const fields: [string, string][] = [[L.product[lang], productOf(l)], [L.producer[lang], l.farm]];
      if (l.address) fields.push([L.address[lang], l.address]);
      if (l.phone) fields.push([L.phone[lang], l.phone]);
      fields.push([L.batch[lang], l.batchNo], [L.harvested[lang], l.harvestedOn]);
      doc.font('text').fontSize(8);
      const labelWidth = Math.max(...fields.map(([k]) => doc.widthOfString(k))) + 1.5 * MM;
      fields.forEach(([k, v], row) => {
        const ty = top + row * 10.5;
        doc.fillColor('#333').text(k, x + pad.x, ty, { lineBreak: false });
        doc.fillColor('#000').text(v, x + pad.x + labelWidth, ty, { width: textWidth - labelWidth, height: 10, lineBreak: false, ellipsis: true });
      });
      const qx = x + w - pad.x - qrSize;
      doc.image(pngs.get(l.code)!, qx, top - 2, { width: qrSize, height: qrSize });
      doc.font('bold').fontSize(8).fillColor('#000').text(l.code, qx - 3 * MM, top - 2 + qrSize + 0.5, { width: qrSize + 6 * MM, align: 'center', lineBreak: false });
      doc.font('text').fontSize(6.5).text(L.scan[lang], qx - 3 * MM, top - 2 + qrSize + 10.5, { width: qrSize + 6 * MM, align: 'center', lineBreak: false, ellipsis: true });
      // The commitment at the foot, as large as fits under the QR's caption (6.3 pt; the longer en and es texts go down to 5.4 pt).
      const captionBottom = top - 2 + qrSize + 19;
      let size = 6.3;
      doc.font('text').fontSize(size);
      while (size > 5.4 && y + h - pad.y - doc.heightOfString(L.promise[lang], { width: inner, lineGap: 0.4 }) < captionBottom + 3) doc.fontSize((size -= 0.3));
      const py = y + h - pad.y - doc.heightOfString(L.promise[lang], { width: inner, lineGap: 0.4 });
      doc.save().lineWidth(0.5).strokeColor('#999').moveTo(x + pad.x, py - 2).lineTo(x + w - pad.x, py - 2).stroke().restore();
      doc.fillColor('#000').text(L.promise[lang], x + pad.x, py, { width: inner, lineGap: 0.4 });
    });
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------
// Routes

const CODE = '^[A-Z0-9]{12}$';
const codeSchema = { type: 'string', minLength: 12, maxLength: 12, pattern: CODE } as const;
const ticketBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    code: codeSchema,
    codes: { type: 'array', minItems: 1, maxItems: MAX_CODES, uniqueItems: true, items: codeSchema },
    copies: { type: 'integer', minimum: 1, maximum: MAX_LABELS },
  },
} as const;
const ticketQuery = { type: 'object', additionalProperties: false, required: ['t'], properties: { t: { type: 'string', minLength: 10, maxLength: 4000 } } } as const;

const sendPage = (reply: FastifyReply, status: number, lang: Lang, text: string) =>
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${L.sheetTitle[lang]}</title></head><body><main style="max-width:640px;margin:40px auto;font:16px/1.6 sans-serif"><h1>${L.sheetTitle[lang]}</h1><p role="alert">${escapeHtml(text)}</p></main></body></html>`);

/** A batch that gets no certificate: recalled, or harvested inside an interval and not yet released by its own test. */
function refusalOf(labels: Label[]): { key: string; batch: string } | null {
  const recalled = labels.find((l) => l.recalled);
  if (recalled) return { key: msg['labels.recalled'], batch: recalled.batchNo };
  const unreleased = labels.find((l) => l.unreleased);
  return unreleased ? { key: msg['labels.insideInterval'], batch: unreleased.batchNo } : null;
}

/** Why a ticket cannot be used now, as a page; else the user and the labels. */
async function openTicket(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, value: string): Promise<{ labels: Label[]; copies: number; base: string; lang: Lang } | null> {
  const ticket = await readTicket(app.db, value);
  const lang = ticket?.l && ['zh', 'en', 'es'].includes(ticket.l) ? ticket.l : req.lang;
  const user = ticket ? await ticketUser(app.db, ticket) : null;
  if (!ticket || !user) return void sendPage(reply, 403, lang, L.expired[lang]), null;
  if (!can(user, LABEL_MENU, LABEL_ACTION)) return void sendPage(reply, 403, lang, L.forbidden[lang]), null;
  const base = app.config.publicBaseUrl;
  if (!base) return void sendPage(reply, 503, lang, NO_PUBLIC_URL[lang]), null;
  const labels = await labelsOf(app.db, user, ticket.c);
  if (labels.length !== ticket.c.length) return void sendPage(reply, 404, lang, L.missing[lang]), null;
  const refusal = refusalOf(labels);
  if (refusal) return void sendPage(reply, 409, lang, t(lang, refusal.key, { batch: refusal.batch })), null;
  return { labels, copies: ticket.n, base, lang };
}

/**
 * `POST /api/trackInfoManage/labelSheets` (the print ticket), `GET …/labelSheet?t=` (the HTML
 * sheet) and `GET …/labelSheet/pdf?t=` (the PDF). The two GETs are reachable without an
 * Authorization header (`public` in the route list): the signed ticket is their authority.
 */
export function registerLabelSheets(app: FastifyInstance): void {
  const tags = ['harvest'];
  const validated = { validatorCompiler: resourceValidatorCompiler, attachValidation: true } as const;
  app.post<{ Body: { code?: string; codes?: string[]; copies?: number } }>(
    '/trackInfoManage/labelSheets',
    {
      ...validated,
      schema: {
        tags,
        summary: 'A print ticket for the 合格证 label sheet of trace codes (A4, 2 × 5 labels): the addresses of the HTML sheet and of the PDF, valid ten minutes',
        description: `Needs ${LABEL_MENU}:${LABEL_ACTION}. code or codes (at most ${MAX_CODES}) of the caller’s farms, none recalled; copies of each (default one page, ${LABELS_PER_PAGE}), at most ${MAX_LABELS} labels in all. Refused with a sentence when PUBLIC_BASE_URL is not configured.`,
        body: ticketBody,
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: [LABEL_MENU] });
      if (!can(me, LABEL_MENU, LABEL_ACTION)) throw forbidden();
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body ?? {};
      const codes = [...new Set([...(body.code ? [body.code] : []), ...(body.codes ?? [])])];
      if (!codes.length) throw invalidInput([{ field: 'codes', message: t(req.lang, msg['labels.noCode']) }], req.lang);
      const copies = body.copies ?? LABELS_PER_PAGE;
      if (codes.length > MAX_CODES || codes.length * copies > MAX_LABELS) {
        throw invalidInput([{ field: 'copies', message: t(req.lang, msg['labels.tooMany'], { max: MAX_LABELS, codes: codes.length, copies, total: codes.length * copies }) }], req.lang);
      }
      // The address every QR encodes comes from configuration only; without it no label is printed.
      if (!app.config.publicBaseUrl) throw invalidInput([{ field: 'codes', message: t(req.lang, msg['labels.noPublicUrl']) }], req.lang);
      const labels = await labelsOf(app.db, me, codes);
      if (labels.length !== codes.length) throw notFound();
      const refusal = refusalOf(labels);
      if (refusal) throw invalidInput([{ field: 'codes', message: t(req.lang, refusal.key, { batch: refusal.batch }) }], req.lang);
      const claims = req.token ? await app.tokens.verify(req.token) : null;
      if (!claims) throw forbidden();
      const expires = Math.floor(Date.now() / 1000) + TICKET_TTL_SECONDS;
      const ticket = await signTicket(app.db, { u: me.id, j: claims.jti, e: claims.epoch, c: codes, n: copies, x: expires, l: req.lang });
      const query = `t=${encodeURIComponent(ticket)}`;
      return ok({
        ticket,
        html: `/api/trackInfoManage/labelSheet?${query}`,
        pdf: `/api/trackInfoManage/labelSheet/pdf?${query}`,
        expiresAt: new Date(expires * 1000).toISOString(),
        labels: labels.length * copies,
        pages: pagesOf(labels, copies).length,
      });
    },
  );
  app.get<{ Querystring: { t: string } }>(
    '/trackInfoManage/labelSheet',
    { ...validated, config: { public: true }, schema: { tags, summary: 'The label sheet of a print ticket as an HTML page that prints on A4 (no session: the ticket is the authority)', querystring: ticketQuery } },
    async (req, reply) => {
      if (req.validationError) return sendPage(reply, 403, req.lang, L.expired[req.lang]);
      const open = await openTicket(app, req, reply, req.query.t);
      if (!open) return reply;
      const svgs = new Map<string, string>();
      for (const l of open.labels) svgs.set(l.code, await QRCode.toString(traceUrl(open.base, l.code), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }));
      const html = renderLabelSheetHtml(open.labels, open.copies, open.base, open.lang, `/api/trackInfoManage/labelSheet/pdf?t=${encodeURIComponent(req.query.t)}`, svgs);
      return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );
  app.get<{ Querystring: { t: string } }>(
    '/trackInfoManage/labelSheet/pdf',
    { ...validated, config: { public: true }, schema: { tags, summary: 'The label sheet of a print ticket as a PDF (A4; the font embedded; no session: the ticket is the authority)', querystring: ticketQuery } },
    async (req, reply) => {
      if (req.validationError) return sendPage(reply, 403, req.lang, L.expired[req.lang]);
      const open = await openTicket(app, req, reply, req.query.t);
      if (!open) return reply;
      const pdf = await renderLabelSheetPdf(open.labels, open.copies, open.base, open.lang);
      const name = `labels-${open.labels[0].batchNo}${open.labels.length > 1 ? `-${open.labels.length}` : ''}.pdf`;
      return reply.header('content-type', 'application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${name}"`).send(pdf);
    },
  );
}
