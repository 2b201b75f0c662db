import type { Queryable } from '../db/database.ts';
import { business, forbidden } from '../http/envelope.ts';
import { defineMessages, t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';

/**
 * The regional center an organisation belongs to (`organisations.center_id`,
 * auth/region-scope.ts): written by the organisation calls (legacy/organisations/routes.ts)
 * and the seedling bases' resource (nursery-extensions.ts), checked here for both.
 */
export const centerMsg = defineMessages({
  'org.centerNotCenter': {
    zh: '所选区域管理中心不存在或不是区域管理中心',
    en: 'The chosen regional management center does not exist or is not a regional management center',
    es: 'El centro de gestión regional elegido no existe o no es un centro de gestión regional',
  },
});

/** The field the region's center travels in, in bodies and replies. */
export const CENTER_FIELD = 'centerId';

/** The element codes that move an organisation into or out of a region (the platform role's only, server/seed/roles.ts). */
export const REGION_CODES = { farm: 'multiFarmIndex:region', nursery: 'nurseryManageIndex:region' } as const;

/**
 * Refuses a center that is not an organisation of type 3 (40001 on `centerId`). Only a
 * holder of the region code (the platform administrator) moves an organisation into or out
 * of a region (40301 for anyone else): the region decides who reads the organisation's
 * records. The forms show the field to holders of the code only (`requires`).
 */
export async function checkCenterChange(
  tx: Queryable,
  user: { platformAdmin: boolean; elements: ReadonlySet<string> },
  code: string,
  before: number | null,
  after: number | null | undefined,
): Promise<void> {
  if (after === undefined || after === before) return;
  if (!user.platformAdmin && !user.elements.has(code)) throw forbidden();
  if (after === null) return;
  const { rows } = await tx.query('SELECT 1 FROM organisations WHERE id = $1 AND type = 3', [after]);
  if (!rows[0]) throw business(centerMsg['org.centerNotCenter'], {}, (lang: Lang) => [{ field: CENTER_FIELD, message: t(lang, centerMsg['org.centerNotCenter']) }]);
}
