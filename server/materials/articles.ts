/**
 * Product articles (docs/materials.md, "Product articles"): the manufacturer writes one
 * article per product (`fertilizerProducts`) or combination package (`fertilizerCombos`),
 * resource `productArticles` of the manufacturer's organisation (the engine's farm scope:
 * a manufacturer reads and writes its own only). The rules here run inside the engine's
 * write; the reads below serve the three article routes:
 *
 * - /fertilizerFactory/article/:id — a product of the caller's manufacturer with its article;
 * - /fertilizerFactory/comboArticle/:id — a package with its contents and article;
 * - /farmMaterialsManage/article/:id — a farm's catalogue material with the article of the
 *   manufacturer's product it is: the product of the organisation named as the material's
 *   manufacturer with the same registration number, else the same name.
 */
import type { Queryable } from '../db/database.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { defineMessages, t } from '../i18n/catalog.ts';
import { invalidInput } from '../resources/validation.ts';
import type { CreateContext, DeleteContext, ResourceExtension, UpdateContext } from '../resources/extensions.ts';
import { sanitizeHtml } from '../admin/sanitize.ts';
import { farmScope } from './ledger.ts';

defineMessages({
  'articles.oneSubject': {
    zh: '请选择文章所属的产品或组合套餐（只能选一个）',
    en: 'Choose the product or the combination package the article is about (one of them)',
    es: 'Elija el producto o el paquete del artículo (uno de los dos)',
  },
  'articles.taken': {
    zh: '「{name}」已有文章，请修改那一篇',
    en: '«{name}» already has an article; edit that one',
    es: '«{name}» ya tiene un artículo; modifique ese',
  },
  'articles.emptyBody': { zh: '正文不能为空', en: 'The body cannot be empty', es: 'El cuerpo no puede estar vacío' },
  'combos.productMissing': { zh: '产品不存在', en: 'The product does not exist', es: 'El producto no existe' },
  'combos.productRepeated': { zh: '同一产品在套餐中只能出现一次', en: 'A product appears once in a package', es: 'Un producto aparece una sola vez en el paquete' },
  'combos.productInUse': {
    zh: '「{name}」在组合套餐「{combo}」中，不能删除',
    en: '«{name}» is in the package «{combo}» and cannot be deleted',
    es: '«{name}» está en el paquete «{combo}» y no se puede eliminar',
  },
});

type Ctx = CreateContext | UpdateContext;

async function checkArticle(ctx: Ctx, id: number | null): Promise<void> {
  const d = ctx.data;
  const hasProduct = typeof d.productId === 'number';
  const hasCombo = typeof d.comboId === 'number';
  if (hasProduct === hasCombo) throw invalidInput([{ field: 'productId', message: t(ctx.lang, 'articles.oneSubject') }], ctx.lang);
  if (typeof d.content === 'string') d.content = sanitizeHtml(d.content);
  if (typeof d.content !== 'string' || !d.content.replace(/<[^>]*>/g, '').trim()) throw invalidInput([{ field: 'content', message: t(ctx.lang, 'articles.emptyBody') }], ctx.lang);
  const field = hasProduct ? 'productId' : 'comboId';
  const subject = hasProduct ? d.productId : d.comboId;
  // One article per product or package: writes of the same subject queue on this lock.
  await ctx.tx.query(`SELECT pg_advisory_xact_lock(hashtext('productArticles'), $1::int)`, [subject]);
  const { rows } = await ctx.tx.query<{ name: string }>(
    `SELECT s.data->>'name' AS name FROM resource_records a JOIN resource_records s ON s.id = (a.data->>'${field}')::bigint
      WHERE a.resource = 'productArticles' AND a.data->>'${field}' = $1::text AND ($2::bigint IS NULL OR a.id <> $2)`,
    [subject, id],
  );
  if (rows[0]) throw invalidInput([{ field, message: t(ctx.lang, 'articles.taken', { name: rows[0].name }) }], ctx.lang);
}

async function checkCombo(ctx: Ctx): Promise<void> {
  const items = Array.isArray(ctx.data.items) ? (ctx.data.items as { productId?: number }[]) : [];
  const seen = new Set<number>();
  for (const [i, item] of items.entries()) {
    const productId = Number(item.productId);
    if (seen.has(productId)) throw invalidInput([{ field: `items.${i}.productId`, message: t(ctx.lang, 'combos.productRepeated') }], ctx.lang);
    seen.add(productId);
    // The manufacturer's own products only (another's reads as missing).
    const { rows } = await ctx.tx.query(`SELECT 1 FROM resource_records WHERE resource = 'fertilizerProducts' AND id = $1 AND farm_id IS NOT DISTINCT FROM $2 FOR SHARE`, [productId, ctx.farmId]);
    if (!rows.length) throw invalidInput([{ field: `items.${i}.productId`, message: t(ctx.lang, 'combos.productMissing') }], ctx.lang);
  }
}

async function refuseProductInCombo(ctx: DeleteContext): Promise<void> {
  for (const [id, row] of ctx.current) {
    const { rows } = await ctx.tx.query<{ name: string }>(
      `SELECT data->>'name' AS name FROM resource_records WHERE resource = 'fertilizerCombos' AND jsonb_typeof(data->'items') = 'array'
          AND EXISTS (SELECT 1 FROM jsonb_array_elements(data->'items') i WHERE i->>'productId' = $1::text) LIMIT 1`,
      [id],
    );
    if (rows[0]) throw invalidInput([{ field: 'id', message: t(ctx.lang, 'combos.productInUse', { name: String(row.name), combo: rows[0].name }) }], ctx.lang);
  }
}

export const articleResourceExtensions: ResourceExtension[] = [
  { resource: 'productArticles', hooks: { beforeCreate: (ctx) => checkArticle(ctx, null), beforeUpdate: (ctx) => checkArticle(ctx, ctx.id) } },
  { resource: 'fertilizerCombos', hooks: { beforeCreate: checkCombo, beforeUpdate: checkCombo } },
  { resource: 'fertilizerProducts', hooks: { beforeDelete: refuseProductInCombo } },
];

type Row = Record<string, unknown>;

const ARTICLE_FIELDS = `a.id AS article_id, a.data->>'title' AS title, a.data->>'coverUrl' AS cover_url, a.data->>'summary' AS summary, a.data->>'content' AS content, to_char(a.updated_at, 'YYYY-MM-DD') AS article_updated_on`;

function articleOf(r: Row): Row {
  return {
    articleId: r.article_id === null ? null : Number(r.article_id),
    title: r.title,
    coverUrl: r.cover_url,
    summary: r.summary,
    content: r.content,
    articleUpdatedOn: r.article_updated_on,
  };
}

/** A product of the caller's manufacturer with its article (the article fields null when none is written); null when not the caller's. */
export async function productArticle(db: Queryable, user: SessionUser, productId: number): Promise<Row | null> {
  const p = new Params();
  const { rows } = await db.query<Row>(
    `SELECT p.id, p.data->>'name' AS name, p.data->>'specification' AS specification, p.data->>'unit' AS unit, p.data->>'registrationNo' AS registration_no,
            p.data->>'nutrients' AS nutrients, p.data->>'price' AS price, o.name AS manufacturer, ${ARTICLE_FIELDS}
       FROM resource_records p
       JOIN organisations o ON o.id = p.farm_id
       LEFT JOIN resource_records a ON a.resource = 'productArticles' AND a.farm_id = p.farm_id AND a.data->>'productId' = p.id::text
      WHERE p.resource = 'fertilizerProducts' AND p.id = ${p.add(productId)} AND ${farmScope(user, p, 'p.farm_id')}`,
    p.values,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: Number(r.id),
    productId: Number(r.id),
    product: r.name,
    specification: r.specification,
    unit: r.unit,
    nutrients: r.nutrients,
    registrationNo: r.registration_no,
    price: r.price === null ? null : Number(r.price),
    manufacturer: r.manufacturer,
    ...articleOf(r),
  };
}

/** A package of the caller's manufacturer with its contents («丰沃 硫酸钾 × 2；…») and its article; null when not the caller's. */
export async function comboArticle(db: Queryable, user: SessionUser, comboId: number): Promise<Row | null> {
  const p = new Params();
  const { rows } = await db.query<Row>(
    `SELECT c.id, c.data->>'name' AS name, c.data->>'price' AS price, c.data->>'suitableFor' AS suitable_for, o.name AS manufacturer,
            (SELECT string_agg(coalesce(pr.data->>'name', '?') || ' × ' || (i->>'quantity') || coalesce(pr.data->>'unit', ''), '；' ORDER BY n)
               FROM jsonb_array_elements(CASE WHEN jsonb_typeof(c.data->'items') = 'array' THEN c.data->'items' ELSE '[]'::jsonb END) WITH ORDINALITY AS x(i, n)
               LEFT JOIN resource_records pr ON pr.resource = 'fertilizerProducts' AND pr.id::text = i->>'productId') AS contents,
            ${ARTICLE_FIELDS}
       FROM resource_records c
       JOIN organisations o ON o.id = c.farm_id
       LEFT JOIN resource_records a ON a.resource = 'productArticles' AND a.farm_id = c.farm_id AND a.data->>'comboId' = c.id::text
      WHERE c.resource = 'fertilizerCombos' AND c.id = ${p.add(comboId)} AND ${farmScope(user, p, 'c.farm_id')}`,
    p.values,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: Number(r.id),
    comboId: Number(r.id),
    combo: r.name,
    contents: r.contents,
    price: r.price === null ? null : Number(r.price),
    suitableFor: r.suitable_for,
    manufacturer: r.manufacturer,
    ...articleOf(r),
  };
}

/**
 * A catalogue material of the caller's farm scope with the article of the manufacturer's
 * product it is (article fields null when the manufacturer is not on the platform, has no
 * such product, or wrote no article); null when the material is not the caller's.
 */
export async function materialArticle(db: Queryable, user: SessionUser, materialId: number): Promise<Row | null> {
  const p = new Params();
  const { rows } = await db.query<Row>(
    `SELECT m.id, m.data->>'name' AS name, m.data->>'goodsCode' AS goods_code, m.data->>'specification' AS specification, m.data->>'manufacturer' AS manufacturer,
            m.data->>'registrationNo' AS registration_no, pr.id AS product_id, pr.data->>'name' AS product, ${ARTICLE_FIELDS}
       FROM resource_records m
       LEFT JOIN LATERAL (
         SELECT pr.id, pr.data, pr.farm_id FROM resource_records pr JOIN organisations o ON o.id = pr.farm_id AND o.type = 1
          WHERE pr.resource = 'fertilizerProducts' AND o.name = m.data->>'manufacturer'
            AND ((coalesce(m.data->>'registrationNo', '') <> '' AND pr.data->>'registrationNo' = m.data->>'registrationNo') OR pr.data->>'name' = m.data->>'name')
          ORDER BY (pr.data->>'registrationNo' = m.data->>'registrationNo') DESC NULLS LAST, pr.id LIMIT 1) pr ON TRUE
       LEFT JOIN resource_records a ON a.resource = 'productArticles' AND a.farm_id = pr.farm_id AND a.data->>'productId' = pr.id::text
      WHERE m.resource = 'farmMaterials' AND m.id = ${p.add(materialId)} AND ${farmScope(user, p, 'm.farm_id')}`,
    p.values,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: Number(r.id),
    materialId: Number(r.id),
    material: r.name,
    goodsCode: r.goods_code,
    specification: r.specification,
    manufacturer: r.manufacturer,
    registrationNo: r.registration_no,
    productId: r.product_id === null ? null : Number(r.product_id),
    product: r.product,
    ...articleOf(r),
  };
}
