import { business, forbidden } from '../http/envelope.ts';
import type { ResourceExtension } from '../resources/extensions.ts';
import { msg } from './messages.ts';
import { checkCenterChange, REGION_CODES } from './region-center.ts';

const centerOf = (data: Record<string, unknown>): number | undefined => (typeof data.centerId === 'number' ? data.centerId : undefined);

/**
 * The rules of the seedling bases (schemas/resources/nurseries.json, rows of the
 * organisations table) that the document cannot state, handed to the resource engine in
 * server/modules.ts. The engine has already checked authority and scope, and that a new
 * base goes into the caller's group (a member of an organisation adds none).
 *
 * - nobody disables or deletes the organisation they belong to (40301);
 * - a change that changes nothing is refused (40001), as the endpoint always did;
 * - a base that people still belong to is not deleted (40001, naming how many);
 * - rows carry their people count and group name, and offer no deletion of one's own base;
 * - the regional center (`centerId`) is an organisation of type 3, set by the platform only.
 */
export const nurseryResourceExtensions: ResourceExtension[] = [
  {
    resource: 'nurseries',
    hooks: {
      async beforeCreate({ tx, user, data }) {
        await checkCenterChange(tx, user, REGION_CODES.nursery, null, centerOf(data));
      },
      async beforeUpdate({ tx, user, id, data, current }) {
        // A form sends the status it showed: only a change of one's own base's status is refused.
        if (id === user.orgId && data.status !== current.status) throw forbidden();
        await checkCenterChange(tx, user, REGION_CODES.nursery, centerOf(current) ?? null, centerOf(data) ?? null);
        const keys = new Set([...Object.keys(data), ...Object.keys(current)]);
        if ([...keys].every((k) => JSON.stringify(data[k]) === JSON.stringify(current[k]))) throw business(msg['admin.nothingToChange']);
      },
      async beforeDelete({ tx, user, ids }) {
        if (user.orgId != null && ids.includes(user.orgId)) throw forbidden();
        const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE org_id = ANY($1::int[])', [ids]);
        if (rows[0].n > 0) throw business(msg['admin.orgHasPeople'], { count: rows[0].n });
      },
      rowHints: ({ user, row }) => ({ edit: true, delete: row.id !== user.orgId }),
      async augmentRows({ db, rows }) {
        const { rows: found } = await db.query<{ id: number; bloc_name: string | null; people: number }>(
          `SELECT o.id, b.name AS bloc_name, (SELECT count(*)::int FROM users u WHERE u.org_id = o.id) AS people
             FROM organisations o LEFT JOIN blocs b ON b.id = o.bloc_id WHERE o.id = ANY($1::int[])`,
          [rows.map((r) => r.id)],
        );
        const byId = new Map(found.map((f) => [Number(f.id), f]));
        for (const row of rows) {
          const f = byId.get(row.id as number);
          row.blocName = f?.bloc_name ?? null;
          row.people = f?.people ?? 0;
        }
      },
      replyFields: {
        blocName: { type: ['string', 'null'], description: 'The name of the group the base belongs to.' },
        people: { type: 'integer', description: 'People who belong to the base.' },
      },
    },
  },
];
