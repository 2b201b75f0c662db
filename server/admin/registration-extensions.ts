import { audit } from '../audit/log.ts';
import { business } from '../http/envelope.ts';
import { insertUser } from '../legacy/accounts/users.ts';
import type { ResourceExtension, TransitionContext } from '../resources/extensions.ts';
import { msg } from './messages.ts';

/** The role a new organisation's first account gets, by organisation type (spec §1). */
export const ROLE_FOR_ORG_TYPE: Record<number, string> = { 0: 'farmOperator', 1: 'manufacturer', 3: 'regionalCenter', 4: 'seedlingBase' };

/** What the applicant submitted, as `payload` keeps it (with the password hash no document maps). */
interface Submission {
  username: string;
  name: string;
  phone: string;
  passwordHash: string;
  orgName: string;
  orgType: number;
  city: string | null;
  address: string | null;
  contact: string | null;
  description: string | null;
}

/**
 * Approving a request creates what it asks for, in the transition's transaction (so a
 * refusal here leaves the request pending and nothing created): the organisation, then
 * its first account with the submitted password hash and the role fitting the
 * organisation type (or the role sent). The engine has already locked the request and
 * checked that it is pending, so of two reviewers racing only one gets here.
 */
async function createOrganisationAndAccount(ctx: TransitionContext): Promise<void> {
  const { tx, req, id, input, data } = ctx;
  const p = (await tx.query<{ payload: Submission }>('SELECT payload FROM registration_requests WHERE id = $1', [id])).rows[0].payload;
  const roleCode = ROLE_FOR_ORG_TYPE[p.orgType];
  const roleId = input.roleId as number | undefined;
  const role = (
    await tx.query<{ id: number; code: string; platform: boolean }>(
      roleId ? 'SELECT id, code, platform FROM roles WHERE id = $1' : 'SELECT id, code, platform FROM roles WHERE code = $1',
      [roleId ?? roleCode],
    )
  ).rows[0];
  if (!role || role.platform) throw business(msg['admin.regNoRole'], { code: roleId ?? roleCode });
  // Someone may have taken the username or the phone since the request was made.
  const taken = (
    await tx.query<{ username: boolean; phone: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1)) AS username, EXISTS (SELECT 1 FROM users WHERE mobile_phone = $2) AS phone`,
      [p.username, p.phone],
    )
  ).rows[0];
  if (taken.username) throw business(msg['admin.regUsernameTaken'], { username: p.username });
  if (taken.phone) throw business(msg['admin.regPhoneTaken'], { phone: p.phone });

  const org = (
    await tx.query<{ id: number }>(
      `INSERT INTO organisations(name, type, city, address, contact, phone) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [p.orgName, p.orgType, p.city, p.address, p.contact ?? p.name, p.phone],
    )
  ).rows[0].id;
  await audit(tx, req, { action: 'org.create', resource: 'organisations', recordId: org, changes: { name: p.orgName, type: p.orgType, city: p.city, registration: id } });
  const userId = await insertUser(tx, {
    username: p.username,
    passwordHash: p.passwordHash,
    name: p.name,
    mobilePhone: p.phone,
    kind: 'operator',
    orgId: org,
    description: p.description,
    city: p.city,
  });
  await tx.query('INSERT INTO user_roles(user_id, role_id) VALUES ($1, $2)', [userId, role.id]);
  await audit(tx, req, {
    action: 'user.create',
    resource: 'users',
    recordId: userId,
    changes: { username: p.username, name: p.name, mobilePhone: p.phone, kind: 'operator', orgId: org, registration: id, roles: [role.id] },
  });
  // Stored by the engine's one update of the request, and so in its `registration.approve` log entry.
  data.orgId = org;
  data.userId = userId;
}

/** The record properties a reply always carries, null when empty (as the endpoint always answered). */
const NULLABLE = ['city', 'address', 'contact', 'description', 'reason', 'reviewedBy', 'reviewedAt', 'orgId', 'userId'] as const;

/**
 * The rules of the registration review (schemas/resources/registrations.json, rows of
 * registration_requests) that the document cannot state, handed to the engine in
 * server/modules.ts. The document declares the states, the two transitions with their
 * element codes and legacy paths (PUT …/:id/approve, PUT …/:id/reject) and serves no
 * plain write; the engine locks the request, checks it is pending, stores the state and
 * the reason and logs `registration.approve|reject`.
 *
 * - either transition records who reviewed and when;
 * - approving creates the organisation and its first account (createOrganisationAndAccount);
 * - rows carry the reviewer's name, and every shown field, null when empty.
 */
export const registrationResourceExtensions: ResourceExtension[] = [
  {
    resource: 'registrations',
    hooks: {
      async beforeTransition(ctx) {
        ctx.data.reviewedBy = ctx.user.id;
        ctx.data.reviewedAt = new Date().toISOString();
        if (ctx.transition === 'approve') await createOrganisationAndAccount(ctx);
      },
      async augmentRows({ db, rows }) {
        const reviewers = [...new Set(rows.map((r) => r.reviewedBy).filter((v) => v != null))];
        const names = reviewers.length
          ? new Map((await db.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE id = ANY($1::int[])', [reviewers])).rows.map((u) => [u.id, u.name]))
          : new Map<number, string>();
        for (const row of rows) {
          for (const field of NULLABLE) row[field] ??= null;
          // A timestamp column reads back in the database's text form; the API has always sent ISO 8601 in UTC.
          if (typeof row.reviewedAt === 'string') row.reviewedAt = new Date(row.reviewedAt).toISOString();
          row.reviewedByName = row.reviewedBy == null ? null : (names.get(row.reviewedBy as number) ?? null);
        }
      },
      replyFields: {
        reviewedByName: { type: ['string', 'null'], description: 'The name of the reviewer.' },
        // Declared nullable here: a request not yet reviewed has none of these.
        ...Object.fromEntries(NULLABLE.map((f) => [f, { type: [f.endsWith('Id') || f === 'reviewedBy' ? 'integer' : 'string', 'null'] }])),
      },
    },
  },
];
