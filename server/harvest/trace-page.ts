/**
 * The consumer's trace page, served outside the console and without a session
 * (docs/harvest-sales-trace.md, "The public page"): `GET /t/:code` is one small
 * server-rendered HTML document (no script, one inline style sheet, which the console's CSP
 * allows), `GET /t/:code/qr.svg` its QR image, `POST /t/:code/reviews` the review form.
 *
 * Nothing private leaves here: no person's name (workers, managers, creators, the farm's
 * contact), no price or amount, no other batch; only the batch, its farm (name and city),
 * plot, crop, the group's farm work and inputs (what and when), the tests, and the farm's
 * answers to earlier reviews. Every value is HTML-escaped; reviews are stripped of markup and
 * control characters before they are stored, and rate-limited per sender and per code.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { Queryable } from '../db/database.ts';
import type { Lang } from '../i18n/lang.ts';
import { applicationsBefore, lastAppliedOn } from './safety.ts';
import { releaseOf } from './release.ts';

const CODE = /^[A-Z0-9]{12}$/;
/** Reviews one sender may leave in ten minutes (all codes together), and one code in a day. */
export const REVIEWS_PER_SENDER = 3;
export const REVIEWS_PER_CODE_PER_DAY = 200;

type Texts = Record<Lang, string>;
const L = {
  title: { zh: '产品追溯', en: 'Product trace', es: 'Trazabilidad del producto' },
  notFound: { zh: '没有找到这个追溯码，请核对包装上的二维码。', en: 'This trace code was not found; please check the QR code on the package.', es: 'No se encontró este código; compruebe el código QR del envase.' },
  farm: { zh: '农场', en: 'Farm', es: 'Granja' },
  batch: { zh: '批次', en: 'Batch', es: 'Lote' },
  crop: { zh: '作物', en: 'Crop', es: 'Cultivo' },
  plot: { zh: '地块', en: 'Plot', es: 'Parcela' },
  planted: { zh: '种植日期', en: 'Planted on', es: 'Plantado el' },
  harvested: { zh: '采收日期', en: 'Harvested on', es: 'Cosechado el' },
  grade: { zh: '等级', en: 'Grade', es: 'Categoría' },
  work: { zh: '主要农事', en: 'Key farm work', es: 'Labores principales' },
  inputs: { zh: '投入品', en: 'Inputs applied', es: 'Insumos aplicados' },
  tests: { zh: '检测与认证', en: 'Tests and certificates', es: 'Análisis y certificados' },
  none: { zh: '暂无记录', en: 'Nothing recorded', es: 'Sin registros' },
  pass: { zh: '合格', en: 'Pass', es: 'Conforme' },
  fail: { zh: '不合格', en: 'Fail', es: 'No conforme' },
  reviews: { zh: '消费者评价', en: 'Consumers’ reviews', es: 'Opiniones de consumidores' },
  answer: { zh: '农场回复', en: 'The farm answers', es: 'Respuesta de la granja' },
  leave: { zh: '留下评价或建议', en: 'Leave a review or suggestion', es: 'Deje una opinión o sugerencia' },
  review: { zh: '评价', en: 'Review', es: 'Opinión' },
  suggestion: { zh: '建议', en: 'Suggestion', es: 'Sugerencia' },
  rating: { zh: '评分', en: 'Rating', es: 'Valoración' },
  content: { zh: '内容', en: 'Your words', es: 'Su mensaje' },
  nickname: { zh: '昵称（可不填）', en: 'Nickname (optional)', es: 'Apodo (opcional)' },
  send: { zh: '提交', en: 'Send', es: 'Enviar' },
  thanks: { zh: '谢谢！农场会看到您的留言。', en: 'Thank you! The farm will read your message.', es: '¡Gracias! La granja leerá su mensaje.' },
  tooMany: { zh: '提交太频繁，请稍后再试。', en: 'Too many messages; please try again later.', es: 'Demasiados mensajes; inténtelo más tarde.' },
  empty: { zh: '请填写内容（1–500 字）。', en: 'Please write something (1–500 characters).', es: 'Escriba algo (1–500 caracteres).' },
  safety: { zh: '农药安全间隔期核对', en: 'Pesticide safety intervals', es: 'Plazos de seguridad de los plaguicidas' },
  safetyWhat: {
    zh: '安全间隔期是最后一次施药到可以采收之间必须等待的天数，等够了，农药残留才会降到安全水平。',
    en: 'A safety interval is the number of days that must pass between spraying a pesticide and harvesting, so that its residues fall to a safe level.',
    es: 'El plazo de seguridad es el número de días que deben pasar entre la aplicación de un plaguicida y la cosecha, para que sus residuos bajen a un nivel seguro.',
  },
  safetyInsideBanner: {
    zh: '注意：本批次是在农药安全间隔期内采收的，采收时还没有等够规定的天数。',
    en: 'Warning: this batch was harvested inside a pesticide’s safety interval, before the required days had passed.',
    es: 'Atención: este lote se cosechó dentro del plazo de seguridad de un plaguicida, antes de que pasaran los días exigidos.',
  },
  safetyAllClear: {
    zh: '生长期内施用的每一种农药，本批次都是在安全间隔期满后才采收的。',
    en: 'Every pesticide applied while this crop grew had passed its safety interval when this batch was harvested.',
    es: 'Todos los plaguicidas aplicados durante el cultivo habían cumplido su plazo de seguridad cuando se cosechó este lote.',
  },
  safetyNoPesticide: {
    zh: '生长期内没有施用有安全间隔期的农药。',
    en: 'No pesticide with a safety interval was applied while this crop grew.',
    es: 'No se aplicó ningún plaguicida con plazo de seguridad durante el cultivo.',
  },
  safetyInside: {
    zh: '{on} 施用 {name}，安全间隔期 {days} 天，应在 {safe} 及以后采收；本批次 {harvested} 采收，提前了 {early} 天。',
    en: '{name} applied on {on}; its safety interval is {days} days, so harvesting should wait until {safe}; this batch was harvested on {harvested}, {early} days too early.',
    es: '{name} aplicado el {on}; su plazo de seguridad es de {days} días, así que la cosecha debía esperar hasta el {safe}; este lote se cosechó el {harvested}, {early} días antes de tiempo.',
  },
  safetyClear: {
    zh: '{on} 施用 {name}，安全间隔期 {days} 天，{safe} 起可以采收；本批次 {harvested} 采收，已过安全间隔期。',
    en: '{name} applied on {on}; its safety interval is {days} days, safe to harvest from {safe}; this batch was harvested on {harvested}, after the interval.',
    es: '{name} aplicado el {on}; su plazo de seguridad es de {days} días, cosecha segura desde el {safe}; este lote se cosechó el {harvested}, después del plazo.',
  },
  safetyUnknown: {
    zh: '{on} 施用 {name}，农场没有登记它的安全间隔期，无法核对。',
    en: '{name} applied on {on}; the farm has not recorded its safety interval, so it cannot be checked.',
    es: '{name} aplicado el {on}; la granja no registró su plazo de seguridad, así que no se puede comprobar.',
  },
  testsBatch: { zh: '本批次的检测', en: 'Tests of this batch', es: 'Análisis de este lote' },
  testsGroup: {
    zh: '同一种植组的检测（在最后一次施用投入品 {last} 之后、本批次采收之前抽样，不是专门针对本批次）',
    en: 'Tests of the planting group this batch comes from (sampled after the last input was applied on {last} and before this batch was harvested; not of this batch alone)',
    es: 'Análisis del grupo de cultivo del que procede este lote (muestreados después de la última aplicación de insumos, el {last}, y antes de cosechar este lote; no solo de este lote)',
  },
  testsGroupNoInput: {
    zh: '同一种植组的检测（本批次采收之前抽样，生长期内没有施用投入品，不是专门针对本批次）',
    en: 'Tests of the planting group this batch comes from (sampled before this batch was harvested; no input was applied while it grew; not of this batch alone)',
    es: 'Análisis del grupo de cultivo del que procede este lote (muestreados antes de cosechar este lote; no se aplicaron insumos durante el cultivo; no solo de este lote)',
  },
  testsFarm: { zh: '农场的认证', en: 'The farm’s certificates', es: 'Certificados de la granja' },
  noTest: {
    zh: '本批次还没有检测记录。',
    en: 'No test of this batch has been recorded yet.',
    es: 'Todavía no hay ningún análisis registrado de este lote.',
  },
  recalled: {
    zh: '本批次已召回（{on}）：{reason}。如果您购买了本批次产品，请停止食用，并联系购买处或农场退换。',
    en: 'This batch was recalled on {on}: {reason}. If you bought it, do not eat it; return it where you bought it or contact the farm.',
    es: 'Este lote fue retirado el {on}: {reason}. Si lo compró, no lo consuma; devuélvalo donde lo compró o contacte con la granja.',
  },
  tooManyViews: {
    zh: '访问太频繁，请一分钟后再试。',
    en: 'Too many requests from your network; please try again in a minute.',
    es: 'Demasiadas solicitudes desde su red; inténtelo de nuevo dentro de un minuto.',
  },
  noPublicUrl: {
    zh: '还不能生成二维码：服务器没有配置公开网址（PUBLIC_BASE_URL，例如 https://trace.example.com）。请联系管理员配置后再打印标签。',
    en: 'The QR code cannot be made yet: the server has no public address configured (PUBLIC_BASE_URL, e.g. https://trace.example.com). Ask the administrator to set it before printing labels.',
    es: 'Todavía no se puede generar el código QR: el servidor no tiene configurada una dirección pública (PUBLIC_BASE_URL, p. ej. https://trace.example.com). Pida al administrador que la configure antes de imprimir etiquetas.',
  },
  scans: { zh: '本码已被查询 {n} 次', en: 'This code was looked up {n} times', es: 'Este código se consultó {n} veces' },
} satisfies Record<string, Texts>;

/** The refusal when PUBLIC_BASE_URL is unset: the QR and the label sheet say the same. */
export const NO_PUBLIC_URL: Texts = L.noPublicUrl;

const GRADE: Record<string, Texts> = {
  premium: { zh: '特级', en: 'Premium', es: 'Extra' },
  first: { zh: '一级', en: 'Grade I', es: 'Primera' },
  second: { zh: '二级', en: 'Grade II', es: 'Segunda' },
  offGrade: { zh: '等外', en: 'Off-grade', es: 'Fuera de categoría' },
};
const KIND: Record<string, Texts> = {
  residueTest: { zh: '农残检测', en: 'Residue test', es: 'Análisis de residuos' },
  soilTest: { zh: '土壤检测', en: 'Soil test', es: 'Análisis de suelo' },
  certification: { zh: '认证', en: 'Certification', es: 'Certificación' },
  processCheck: { zh: '生产过程检查', en: 'Process check', es: 'Control del proceso' },
};

/** The consumer's address of a trace code under the configured public base. */
export function traceUrl(base: string, code: string): string {
  return `${base}/t/${encodeURIComponent(code)}`;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A consumer's text as stored: no markup, no control characters, single spaces, at most `max` characters. */
export function sanitiseText(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : '';
  return (
    text
      .replace(/<[^>]*>?/g, ' ')
      .replace(/[<>]/g, ' ')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e]/g, '')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
      .slice(0, max)
  );
}

interface Batch {
  code: string;
  scans: number;
  harvest_id: string;
  farm_id: number;
  farm_name: string;
  city: string | null;
  batch_no: string;
  harvested_on: string;
  grade: string;
  group_id: string;
  planted_on: string | null;
  crop: string | null;
  plot: string | null;
  recalled_on: string | null;
  recall_reason: string | null;
}

/** Who scanned, for counting once a day: a hash of the day, the address and the browser (never stored in clear). */
export interface Scan {
  day: string;
  visitor: string;
}

async function batchOf(db: Queryable, code: string, scan: Scan | null): Promise<Batch | null> {
  if (!CODE.test(code)) return null;
  // A scan counts once per visitor and day: the visit is recorded first, and only a visit not
  // seen before today raises the count, in the same statement (so parallel reloads count once).
  const { rows } = await db.query<Batch>(
    `${
      scan
        ? `WITH seen AS (INSERT INTO trace_scans(code, day, visitor) SELECT code, $2::date, $3 FROM trace_codes WHERE code = $1 ON CONFLICT DO NOTHING RETURNING code),
           hit AS (UPDATE trace_codes SET scans = scans + 1, last_scanned_at = now() WHERE code IN (SELECT code FROM seen) RETURNING code, scans)`
        : 'WITH hit AS (SELECT code, scans FROM trace_codes WHERE false)'
    }
     SELECT c.code, coalesce(hit.scans, c.scans) AS scans, h.id AS harvest_id, h.farm_id, o.name AS farm_name, o.city, h.batch_no, h.harvested_on::text, h.grade, h.group_id,
            h.recalled_at::date::text AS recalled_on, h.recall_reason, g.data->>'plantedOn' AS planted_on,
            (SELECT cr.data->>'name' FROM resource_records cr WHERE cr.resource = 'crops' AND cr.id = (g.data->>'cropId')::bigint) AS crop,
            (SELECT f.data->>'name' FROM resource_records f WHERE f.resource = 'farmFields' AND f.id = (g.data->>'fieldId')::bigint) AS plot
       FROM trace_codes c LEFT JOIN hit ON hit.code = c.code JOIN harvests h ON h.id = c.harvest_id JOIN organisations o ON o.id = h.farm_id
       LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = h.group_id
      WHERE c.code = $1`,
    scan ? [code, scan.day, scan.visitor] : [code],
  );
  return rows[0] ?? null;
}

/** What a consumer may see of the batch, and nothing else (names and prices are never selected). */
export async function tracePublicView(db: Queryable, code: string, scan: Scan | null = null) {
  const b = await batchOf(db, code, scan);
  if (!b) return null;
  // The release gate: a batch held by a safety interval has no public page (a recalled one
  // keeps its page, which says recalled: consumers holding it must read that).
  if (!b.recalled_on && (await releaseOf(db, Number(b.harvest_id))).state === 'held') return null;
  const applied = (await applicationsBefore(db, [{ key: Number(b.harvest_id), groupId: Number(b.group_id), farmId: b.farm_id, harvestedOn: b.harvested_on }])).get(Number(b.harvest_id)) ?? [];
  const lastInput = lastAppliedOn(applied);
  const [work, tests, answered] = await Promise.all([
    db.query<{ done_on: string; title: string }>(
      `SELECT r.data->>'doneOn' AS done_on, t.data->>'title' AS title
         FROM resource_records r JOIN resource_records t ON t.resource = 'farmingTasks' AND t.id = (r.data->>'taskId')::bigint
        WHERE r.resource = 'farmingRecords' AND t.data->>'groupId' = $1 AND r.farm_id = $2 AND r.data->>'doneOn' <= $3
        ORDER BY r.data->>'doneOn', r.id LIMIT 30`,
      [String(b.group_id), b.farm_id, b.harvested_on],
    ),
    // A test belongs on this page when it is of this batch; or of the batch's planting group as a
    // whole (no batch named), sampled after the last input applied and no later than this
    // harvest; or the farm's certificate valid at the harvest. Another batch's test never is.
    db.query<{ source: TestSource; kind: string; title: string; tested_on: string; agency: string | null; item: string | null; conclusion: string | null; certificate_no: string | null; valid_until: string | null }>(
      `SELECT CASE WHEN (q.data->>'harvestId')::bigint = $2 THEN 'batch' WHEN q.data->>'groupId' IS NOT NULL THEN 'group' ELSE 'farm' END AS source,
              q.data->>'kind' AS kind, q.data->>'title' AS title, q.data->>'testedOn' AS tested_on, q.data->>'agency' AS agency, q.data->>'item' AS item,
              q.data->>'conclusion' AS conclusion, q.data->>'certificateNo' AS certificate_no, q.data->>'validUntil' AS valid_until
         FROM resource_records q
        WHERE q.resource = 'qualityRecords' AND q.farm_id = $1
          AND ((q.data->>'harvestId')::bigint = $2
               OR (q.data->>'harvestId' IS NULL AND (q.data->>'groupId')::bigint = $3 AND q.data->>'testedOn' <= $4 AND ($5::text IS NULL OR q.data->>'testedOn' > $5))
               OR (q.data->>'kind' = 'certification' AND q.data->>'harvestId' IS NULL AND q.data->>'groupId' IS NULL AND coalesce(q.data->>'validUntil', '9999') >= $4))
        ORDER BY q.data->>'testedOn' DESC, q.id LIMIT 20`,
      [b.farm_id, b.harvest_id, b.group_id, b.harvested_on, lastInput],
    ),
    db.query<{ kind: string; rating: number | null; content: string; answer: string; created_at: string }>(
      `SELECT kind, rating, content, answer, created_at::date::text AS created_at FROM trace_reviews WHERE code = $1 AND answer IS NOT NULL ORDER BY created_at DESC LIMIT 5`,
      [b.code],
    ),
  ]);
  return {
    code: b.code,
    scans: Number(b.scans),
    farm: { name: b.farm_name, city: b.city },
    batchNo: b.batch_no,
    harvestedOn: b.harvested_on,
    grade: b.grade,
    crop: b.crop,
    plot: b.plot,
    plantedOn: b.planted_on,
    recall: b.recalled_on ? { on: b.recalled_on, reason: b.recall_reason ?? '' } : null,
    work: work.rows.map((r) => ({ on: r.done_on, title: r.title })),
    inputs: applied.map((a) => ({ on: a.appliedOn, name: a.material, category: a.category, quantity: a.quantity, unit: a.unit, intervalDays: a.intervalDays, safeFrom: a.safeFrom, status: a.status })),
    lastInputOn: lastInput,
    tests: tests.rows.map((r) => ({ source: r.source, kind: r.kind, title: r.title, on: r.tested_on, agency: r.agency, item: r.item, conclusion: r.conclusion, certificateNo: r.certificate_no, validUntil: r.valid_until })),
    answered: answered.rows,
  };
}

/** Whose test it is: this batch's, the planting group's (after the last input), the farm's certificate. */
export type TestSource = 'batch' | 'group' | 'farm';

type View = NonNullable<Awaited<ReturnType<typeof tracePublicView>>>;

const STYLE = `body{margin:0;font:15px/1.55 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f2a1f;background:#f4f7f2}
main{max-width:640px;margin:0 auto;padding:16px}h1{font-size:20px;margin:4px 0 12px;color:#2f6b2f}h2{font-size:16px;margin:20px 0 8px;color:#2f6b2f}h3{font-size:14px;margin:10px 0 4px;color:#3d4d3d}
section{background:#fff;border-radius:10px;padding:12px 14px;margin-bottom:12px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}dt{color:#5b6b5b}dd{margin:0}ul{margin:0;padding-left:18px}li{margin:3px 0}
.muted{color:#6b776b;font-size:13px}.ok{color:#237804}.bad{color:#a8071a}.note{padding:8px 10px;border-radius:6px;background:#f6ffed;border:1px solid #b7eb8f}
.warn{background:#fff1f0;border-color:#ffa39e}.recall{font-size:17px;border-width:2px;border-color:#cf1322}label{display:block;margin:8px 0 4px}textarea,input[type=text]{width:100%;box-sizing:border-box;padding:8px;border:1px solid #c9d3c9;border-radius:6px;font:inherit}
button{margin-top:10px;padding:9px 20px;border:0;border-radius:6px;background:#2f6b2f;color:#fff;font:inherit}fieldset{border:0;padding:0;margin:0}`;

function page(lang: Lang, title: string, body: string): string {
  const htmlLang = lang === 'zh' ? 'zh-CN' : lang;
  return `<!doctype html><html lang="${htmlLang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function list<T>(items: T[], lang: Lang, item: (x: T) => string): string {
  return items.length ? `<ul>${items.map((x) => `<li>${item(x)}</li>`).join('')}</ul>` : `<p class="muted">${L.none[lang]}</p>`;
}

export function renderTracePage(v: View, lang: Lang, notice?: { kind: 'ok' | 'error'; text: string }): string {
  const e = escapeHtml;
  const fill = (s: string, n: number) => s.replace('{n}', String(n));
  const stars = [5, 4, 3, 2, 1].map((n) => `<label><input type="radio" name="rating" value="${n}"${n === 5 ? ' checked' : ''}> ${'★'.repeat(n)}</label>`).join('');
  const body = `<h1>${e(v.crop ?? L.title[lang])} · ${e(v.farm.name)}</h1>
${v.recall ? `<p class="note warn recall" role="alert"><strong>${fillAll(L.recalled[lang], { on: v.recall.on, reason: v.recall.reason })}</strong></p>` : ''}
${v.inputs.some((i) => i.status === 'inside') ? `<p class="note warn" role="alert"><strong>${L.safetyInsideBanner[lang]}</strong></p>` : ''}
${notice ? `<p class="note${notice.kind === 'error' ? ' warn' : ''}" role="status">${e(notice.text)}</p>` : ''}
<section><dl>
<dt>${L.farm[lang]}</dt><dd>${e(v.farm.name)}${v.farm.city ? ` · ${e(v.farm.city)}` : ''}</dd>
<dt>${L.batch[lang]}</dt><dd>${e(v.batchNo)}</dd>
<dt>${L.crop[lang]}</dt><dd>${e(v.crop ?? '—')}</dd>
<dt>${L.plot[lang]}</dt><dd>${e(v.plot ?? '—')}</dd>
${v.plantedOn ? `<dt>${L.planted[lang]}</dt><dd>${e(v.plantedOn)}</dd>` : ''}
<dt>${L.harvested[lang]}</dt><dd>${e(v.harvestedOn)}</dd>
<dt>${L.grade[lang]}</dt><dd>${e(GRADE[v.grade]?.[lang] ?? v.grade)}</dd>
</dl></section>
<section><h2>${L.work[lang]}</h2>${list(v.work, lang, (w) => `${e(w.on)} ${e(w.title)}`)}</section>
<section><h2>${L.inputs[lang]}</h2>${list(v.inputs, lang, (i) => `${e(i.on)} ${e(i.name)} ${e(i.quantity)} ${e(i.unit)}`)}</section>
${renderSafety(v, lang)}
${renderTests(v, lang)}
${v.answered.length ? `<section><h2>${L.reviews[lang]}</h2>${list(v.answered, lang, (r) => `${r.rating ? `${'★'.repeat(r.rating)} ` : ''}${e(r.content)}<br><span class="muted">${L.answer[lang]}：</span>${e(r.answer)}`)}</section>` : ''}
<section><h2>${L.leave[lang]}</h2>
<form method="post" action="/t/${e(v.code)}/reviews">
<fieldset><label><input type="radio" name="kind" value="review" checked> ${L.review[lang]}</label><label><input type="radio" name="kind" value="suggestion"> ${L.suggestion[lang]}</label></fieldset>
<fieldset><legend>${L.rating[lang]}</legend>${stars}</fieldset>
<label for="content">${L.content[lang]}</label><textarea id="content" name="content" rows="4" maxlength="500" required></textarea>
<label for="nickname">${L.nickname[lang]}</label><input type="text" id="nickname" name="nickname" maxlength="20">
<button type="submit">${L.send[lang]}</button>
</form></section>
<p class="muted">${fill(L.scans[lang], v.scans)}</p>`;
  return page(lang, `${L.title[lang]} · ${v.crop ?? ''}`, body);
}

const fillAll = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (_m, k: string) => escapeHtml(values[k] ?? ''));
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Every pesticide applied in the growing window against the harvest day, in plain words. */
function renderSafety(v: View, lang: Lang): string {
  const pesticides = v.inputs.filter((i) => i.category === 'pesticide');
  const inside = pesticides.some((i) => i.status === 'inside');
  const summary = inside ? `<p class="bad"><strong>${L.safetyInsideBanner[lang]}</strong></p>` : pesticides.some((i) => i.status === 'clear') && !pesticides.some((i) => i.status === 'noInterval') ? `<p class="ok">${L.safetyAllClear[lang]}</p>` : pesticides.length ? '' : `<p class="ok">${L.safetyNoPesticide[lang]}</p>`;
  const line = (i: View['inputs'][number]) => {
    const values = { on: i.on, name: i.name, days: i.intervalDays ?? '', safe: i.safeFrom ?? '', harvested: v.harvestedOn, early: i.safeFrom ? daysBetween(v.harvestedOn, i.safeFrom) : '' };
    if (i.status === 'inside') return `<span class="bad">✗ ${fillAll(L.safetyInside[lang], values)}</span>`;
    if (i.status === 'clear') return `<span class="ok">✓</span> ${fillAll(L.safetyClear[lang], values)}`;
    return `? ${fillAll(L.safetyUnknown[lang], values)}`;
  };
  return `<section><h2>${L.safety[lang]}</h2>${summary}${pesticides.length ? `<ul>${pesticides.map((i) => `<li>${line(i)}</li>`).join('')}</ul>` : ''}<p class="muted">${L.safetyWhat[lang]}</p></section>`;
}

/** The tests, grouped by whose they are, each group saying so. */
function renderTests(v: View, lang: Lang): string {
  const e = escapeHtml;
  const item = (q: View['tests'][number]) =>
    `${e(q.on)} ${e(KIND[q.kind]?.[lang] ?? q.kind)}：${e(q.title)}${q.agency ? `（${e(q.agency)}）` : ''}${q.conclusion ? ` <span class="${q.conclusion === 'pass' ? 'ok' : 'bad'}">${L[q.conclusion === 'pass' ? 'pass' : 'fail'][lang]}</span>` : ''}${q.certificateNo ? ` <span class="muted">${e(q.certificateNo)}</span>` : ''}`;
  const block = (heading: string, rows: View['tests']) => (rows.length ? `<h3>${heading}</h3><ul>${rows.map((q) => `<li>${item(q)}</li>`).join('')}</ul>` : '');
  const own = v.tests.filter((q) => q.source === 'batch');
  const group = v.tests.filter((q) => q.source === 'group');
  const farm = v.tests.filter((q) => q.source === 'farm');
  const groupHeading = v.lastInputOn ? fillAll(L.testsGroup[lang], { last: v.lastInputOn }) : L.testsGroupNoInput[lang];
  return `<section><h2>${L.tests[lang]}</h2>${own.length || group.length ? '' : `<p class="muted">${L.noTest[lang]}</p>`}${block(L.testsBatch[lang], own)}${block(groupHeading, group)}${block(L.testsFarm[lang], farm)}</section>`;
}

function notFoundPage(lang: Lang): string {
  return page(lang, L.title[lang], `<h1>${L.title[lang]}</h1><section><p>${L.notFound[lang]}</p></section>`);
}

function clientKey(req: FastifyRequest): string {
  return createHash('sha256').update(`trace-review:${req.ip}`).digest('hex').slice(0, 32);
}

/** Page and QR requests one address may make in a minute (a carrier's NAT puts many phones behind one address: generous). */
export const VIEWS_PER_ADDRESS_PER_MINUTE = 120;

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The visitor of one day: the address and the browser, hashed with the day (so days cannot be linked). */
function scanOf(req: FastifyRequest, now: Date): Scan {
  const day = utcDay(now);
  return { day, visitor: createHash('sha256').update(`trace-scan:${day}:${req.ip}:${req.headers['user-agent'] ?? ''}`).digest('hex').slice(0, 32) };
}

/**
 * Counts this request against its address's minute, atomically (a parallel flood cannot pass),
 * and answers whether the limit is passed; the counters of earlier minutes and the scans of
 * earlier days are deleted on the way, so neither table grows.
 */
async function overViewLimit(db: Queryable, req: FastifyRequest, now: Date): Promise<boolean> {
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
  const key = createHash('sha256').update(`trace-view:${req.ip}`).digest('hex').slice(0, 32);
  const { rows } = await db.query<{ hits: number }>(
    `INSERT INTO trace_page_hits(client_key, minute) VALUES ($1, $2::timestamptz)
     ON CONFLICT (client_key, minute) DO UPDATE SET hits = trace_page_hits.hits + 1 RETURNING hits`,
    [key, minute],
  );
  if (rows[0].hits === 1) {
    // The first request of an address's minute tidies up: cheap (both by index) and rare.
    await db.query('DELETE FROM trace_page_hits WHERE minute < $1::timestamptz', [minute]);
    await db.query('DELETE FROM trace_scans WHERE day < $1::date', [utcDay(now)]);
  }
  return rows[0].hits > VIEWS_PER_ADDRESS_PER_MINUTE;
}

const sendHtml = (reply: FastifyReply, status: number, html: string) =>
  reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);

export const tracePages: FastifyPluginAsync = async (plain) => {
  const app = plain as FastifyInstance;
  // The review form posts urlencoded fields; parsed in this plugin only, with a small limit.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get<{ Params: { code: string }; Querystring: { sent?: string } }>('/t/:code', async (req, reply) => {
    const code = String(req.params.code).toUpperCase();
    const now = new Date();
    if (await overViewLimit(app.db, req, now)) return sendHtml(reply, 429, page(req.lang, L.title[req.lang], `<h1>${L.title[req.lang]}</h1><section><p>${L.tooManyViews[req.lang]}</p></section>`));
    const view = await tracePublicView(app.db, code, scanOf(req, now));
    if (!view) return sendHtml(reply, 404, notFoundPage(req.lang));
    return sendHtml(reply, 200, renderTracePage(view, req.lang, req.query.sent === '1' ? { kind: 'ok', text: L.thanks[req.lang] } : undefined));
  });

  app.get<{ Params: { code: string } }>('/t/:code/qr.svg', async (req, reply) => {
    const code = String(req.params.code).toUpperCase();
    if (await overViewLimit(app.db, req, new Date())) return sendHtml(reply, 429, page(req.lang, L.title[req.lang], `<h1>${L.title[req.lang]}</h1><section><p>${L.tooManyViews[req.lang]}</p></section>`));
    if (!CODE.test(code) || !(await app.db.query('SELECT 1 FROM trace_codes WHERE code = $1', [code])).rows[0]) return sendHtml(reply, 404, notFoundPage(req.lang));
    // The address comes from configuration only: a label printed from a console opened at a
    // LAN address, or a request with a forged Host, must still lead consumers to the real site.
    const base = app.config.publicBaseUrl;
    if (!base) return sendHtml(reply, 503, page(req.lang, L.title[req.lang], `<h1>${L.title[req.lang]}</h1><section><p>${L.noPublicUrl[req.lang]}</p></section>`));
    const svg = await QRCode.toString(traceUrl(base, code), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    // Nothing of the request is in the image (only the code and the configuration), so a shared
    // cache holds the same bytes for everyone and cannot be poisoned through a header.
    return reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(svg);
  });

  app.post<{ Params: { code: string }; Body: Record<string, unknown> | undefined }>('/t/:code/reviews', async (req, reply) => {
    const code = String(req.params.code).toUpperCase();
    const lang = req.lang;
    const body = req.body && typeof req.body === 'object' ? req.body : {};
    const content = sanitiseText(body.content, 500);
    const nickname = sanitiseText(body.nickname, 20) || null;
    const kind = body.kind === 'suggestion' ? 'suggestion' : 'review';
    const ratingNumber = Number(body.rating);
    const rating = kind === 'review' && Number.isInteger(ratingNumber) && ratingNumber >= 1 && ratingNumber <= 5 ? ratingNumber : null;
    const key = clientKey(req);
    const outcome = await app.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ farm_id: number }>('SELECT farm_id FROM trace_codes WHERE code = $1', [CODE.test(code) ? code : '']);
      if (!rows[0]) return 'missing' as const;
      if (!content) return 'empty' as const;
      // One sender's and one code's reviews are counted under a lock, so a flood in parallel cannot pass the limits.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`trace-review:${code}`]);
      const counts = await tx.query<{ sender: number; code: number }>(
        `SELECT (SELECT count(*)::int FROM trace_reviews WHERE client_key = $1 AND created_at > now() - interval '10 minutes') AS sender,
                (SELECT count(*)::int FROM trace_reviews WHERE code = $2 AND created_at > now() - interval '1 day') AS code`,
        [key, code],
      );
      if (counts.rows[0].sender >= REVIEWS_PER_SENDER || counts.rows[0].code >= REVIEWS_PER_CODE_PER_DAY) return 'limited' as const;
      await tx.query(`INSERT INTO trace_reviews(code, farm_id, kind, rating, content, nickname, client_key) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [code, rows[0].farm_id, kind, rating, content, nickname, key]);
      return 'saved' as const;
    });
    if (outcome === 'missing') return sendHtml(reply, 404, notFoundPage(lang));
    if (outcome === 'saved') return reply.code(303).header('location', `/t/${code}?sent=1`).send();
    const view = await tracePublicView(app.db, code);
    if (!view) return sendHtml(reply, 404, notFoundPage(lang));
    return sendHtml(reply, outcome === 'limited' ? 429 : 400, renderTracePage(view, lang, { kind: 'error', text: outcome === 'limited' ? L.tooMany[lang] : L.empty[lang] }));
  });
};
