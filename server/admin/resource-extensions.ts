import type { Queryable } from '../db/database.ts';
import { can } from '../../runtime/access/can.ts';
import { business, forbidden, type FieldError } from '../http/envelope.ts';
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import type { ResourceExtension } from '../resources/extensions.ts';
import { msg } from './messages.ts';
import { sanitizeHtml } from './sanitize.ts';

/**
 * Rules of the administration resources that their documents cannot state: unique codes,
 * unique dictionary item values, server-cleaned rich text and the publishing of articles,
 * and role categories that roles still use. Handed to the resource engine (server/modules.ts),
 * which runs them inside each write's transaction after its own authority and scope checks:
 * a caller without the write authority gets 40301 and learns nothing about stored codes.
 */

function fieldRefusal(key: string, params: Record<string, string | number>, field: string) {
  return business(key, params, (lang: Lang): FieldError[] => [{ field, message: t(lang, key, params) }]);
}

async function refuseTakenCode(tx: Queryable, resource: string, data: Record<string, unknown>, id: number | null): Promise<void> {
  const code = data.code;
  if (typeof code !== 'string') return;
  const { rows } = await tx.query(
    `SELECT 1 FROM resource_records WHERE resource = $1 AND lower(data->>'code') = lower($2) AND ($3::bigint IS NULL OR id <> $3)`,
    [resource, code, id],
  );
  if (rows.length) throw fieldRefusal(msg['admin.codeTaken'], { code }, 'code');
}

/** Codes are unique per resource, whatever their case. */
function uniqueCode(resource: string): ResourceExtension {
  return {
    resource,
    hooks: {
      beforeCreate: ({ tx, data }) => refuseTakenCode(tx, resource, data, null),
      beforeUpdate: ({ tx, data, id }) => refuseTakenCode(tx, resource, data, id),
    },
  };
}

function refuseRepeatedItemValues(data: Record<string, unknown>): void {
  const items = Array.isArray(data.items) ? (data.items as { value?: unknown }[]) : [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const value = String(item.value);
    if (seen.has(value)) throw fieldRefusal(msg['admin.itemValueRepeated'], { value }, `items.${i}.value`);
    seen.add(value);
  });
}

async function refuseTakenVersion(tx: Queryable, data: Record<string, unknown>, id: number | null): Promise<void> {
  if (typeof data.platform !== 'string' || typeof data.versionCode !== 'number') return;
  const { rows } = await tx.query(
    `SELECT 1 FROM resource_records WHERE resource = 'appVersions' AND data->>'platform' = $1
        AND (data->>'versionCode')::numeric = $2 AND ($3::bigint IS NULL OR id <> $3)`,
    [data.platform, data.versionCode, id],
  );
  if (rows.length) throw fieldRefusal(msg['admin.versionTaken'], { platform: data.platform, versionCode: data.versionCode }, 'versionCode');
}

export const ARTICLE_PUBLISH_ELEMENT = 'articleManageIndex:publish';
/** Article status: 0 draft, 1 published. */
export const ARTICLE_PUBLISHED = 1;

/**
 * The body is cleaned on every save; publishing (a change of status to published) needs
 * the publish element and dates the article, later saves keep that first date; an
 * article without an author is signed by its writer.
 */
function prepareArticle(data: Record<string, unknown>, before: Record<string, unknown>, user: { name: string; elements?: ReadonlySet<string> }): void {
  if (typeof data.content === 'string') data.content = sanitizeHtml(data.content);
  if (data.status === ARTICLE_PUBLISHED) {
    if (before.status !== ARTICLE_PUBLISHED) {
      if (!can(user, { elements: [ARTICLE_PUBLISH_ELEMENT] })) throw forbidden();
      data.publishedAt = new Date().toISOString();
    } else {
      data.publishedAt = before.publishedAt ?? new Date().toISOString();
    }
  } else {
    delete data.publishedAt;
  }
  if (typeof data.author !== 'string' || !data.author.trim()) data.author = user.name;
}

export const adminResourceExtensions: ResourceExtension[] = [
  uniqueCode('dicts'),
  { resource: 'dicts', hooks: { beforeCreate: async ({ data }) => refuseRepeatedItemValues(data), beforeUpdate: async ({ data }) => refuseRepeatedItemValues(data) } },
  uniqueCode('roleCategories'),
  {
    resource: 'roleCategories',
    hooks: {
      async beforeDelete({ tx, current }) {
        const codes = [...current.values()].map((r) => String(r.code));
        const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM roles WHERE category = ANY($1::text[])`, [codes]);
        if (rows[0].n > 0) throw business(msg['admin.categoryInUse'], { count: rows[0].n });
      },
    },
  },
  {
    resource: 'appVersions',
    hooks: {
      beforeCreate: ({ tx, data }) => refuseTakenVersion(tx, data, null),
      beforeUpdate: ({ tx, data, id }) => refuseTakenVersion(tx, data, id),
    },
  },
  {
    resource: 'articles',
    hooks: {
      beforeCreate: async ({ data, user }) => prepareArticle(data, {}, user),
      beforeUpdate: async ({ data, current, user }) => prepareArticle(data, current, user),
    },
  },
];
