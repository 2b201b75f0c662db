import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FromSchema } from '../schemas.ts';
import type { FastifyRequest } from 'fastify';
// Types only: lets route schemas carry the summary and tags of the generated OpenAPI document.
import type {} from '@fastify/swagger';
import { ok, business, loggedOut, notFound } from '../../http/envelope.ts';
import { caller, requirePlatformAdmin } from '../../http/guard.ts';
import { audit } from '../../audit/log.ts';
import { t } from '../../i18n/catalog.ts';
import type { Lang } from '../../i18n/lang.ts';
import { hashPassword } from '../../auth/password.ts';
import { endSessions } from '../../auth/end-sessions.ts';
import { authMessages as M } from '../../auth/messages.ts';
import { codeRule, fieldErrors, passwordRule, phoneRule, USERNAME_PATTERN, type RuleError } from '../../auth/rules.ts';
import type { SmsPurpose } from '../../sms/sender.ts';
import { consumeCode, countWrongAttempt, issueCode, SMS_RULES, type CheckOutcome } from '../../sms/codes.ts';
import type { SessionUser } from '../../auth/session-user.ts';
import type { Queryable } from '../../db/database.ts';
import { DEMO_LOGO_URL } from '../../seed/seed.ts';

const tags = ['account'];
// PostgreSQL text cannot hold NUL; refusing it in the schema keeps such input a 40001, not a database error.
const str = (maxLength: number, description?: string) =>
  ({ type: 'string', maxLength, pattern: '^[^\\u0000]*$', ...(description ? { description } : {}) }) as const;
const tokenQuery = { type: 'object', properties: { token: str(4096, 'The same token as in Authorization') } } as const;
const phoneQuery = { type: 'object', properties: { phone: str(32, 'Mainland mobile number, 1[3-8] then 9 digits') } } as const;

/** Refuses with the first problem as the message and every problem under its field. */
function refuse(errors: (RuleError | null)[]): void {
  const list = errors.filter((e): e is RuleError => e !== null);
  if (list.length) throw business(M[list[0].key], {}, fieldErrors(list));
}

/** `?token=` must repeat the token of the Authorization header (spec 7.1 sends both). */
function sameToken(req: FastifyRequest<{ Querystring: { token?: string } }>): SessionUser {
  const user = caller(req);
  if (!req.query.token || req.query.token !== req.token) throw loggedOut('auth.queryTokenMismatch');
  return user;
}

/**
 * The farm the console opens by default: the user's own farm, else (a service provider)
 * the first farm of their group, else none.
 */
async function chiefFarmOf(db: Queryable, user: SessionUser): Promise<number | null> {
  if (user.orgType === 0) return user.orgId;
  if (user.blocId == null) return null;
  const { rows } = await db.query<{ id: number }>('SELECT id FROM organisations WHERE bloc_id = $1 AND type = 0 ORDER BY id LIMIT 1', [user.blocId]);
  return rows[0]?.id ?? null;
}

function logoOf(user: { orgLogo: string | null }): string {
  return user.orgLogo ?? DEMO_LOGO_URL;
}

function baseInfo(user: SessionUser) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    mobilePhone: user.mobilePhone,
    attr2: logoOf(user),
    description: user.description,
    city: user.city,
    farmId: user.orgId,
    farmName: user.orgName,
    farmType: user.orgType,
    groupId: user.blocId,
    groupName: user.blocName,
  };
}

interface MenuRow {
  id: number;
  parent_id: number | null;
  code: string;
  path: string;
  title: Record<Lang, string>;
  icon: string | null;
  sort: number;
  hidden: boolean;
  default_child: string | null;
}

export interface MenuNode {
  id: number;
  code: string;
  path: string;
  title: Record<Lang, string>;
  name: string;
  icon: string | null;
  sort: number;
  hidden: boolean;
  defaultChild: string | null;
  children: MenuNode[];
}

/** The user's menu tree: sections and children whose code the user holds, by descending sort. */
export async function menuTreeFor(db: Queryable, codes: Set<string>, lang: Lang): Promise<MenuNode[]> {
  if (codes.size === 0) return [];
  const { rows } = await db.query<MenuRow>(
    `SELECT id, parent_id, code, path, title, icon, sort, hidden, default_child FROM menus
      WHERE code = ANY($1::text[]) ORDER BY sort DESC, id`,
    [[...codes]],
  );
  const node = (r: MenuRow): MenuNode => ({
    id: r.id,
    code: r.code,
    path: r.path,
    title: r.title,
    name: r.title[lang] ?? r.title.zh,
    icon: r.icon,
    sort: r.sort,
    hidden: r.hidden,
    defaultChild: r.default_child,
    children: [],
  });
  const sections = new Map<number, MenuNode>();
  for (const r of rows) if (r.parent_id === null) sections.set(r.id, node(r));
  // Rows come sorted, so pushing keeps each level in descending sort.
  for (const r of rows) if (r.parent_id !== null) sections.get(r.parent_id)?.children.push(node(r));
  return [...sections.values()];
}

/** Every field is optional here: the handler checks them itself, so a missing one gets the spec’s sentence under its field, not a schema error. */
const registBody = {
  type: 'object',
  properties: {
    username: str(64),
    name: str(50),
    phone: str(32),
    password: str(128),
    code: str(32),
    orgName: str(100),
    orgType: { type: 'integer', description: '0 farm, 1 manufacturer, 3 regional center, 4 seedling base' },
    city: str(50),
    address: str(200),
    contact: str(50),
    description: str(500),
  },
} as const;

type RegistBody = FromSchema<typeof registBody>;

/**
 * The account calls of spec 7.1 under /api/admin/user/front: user info, menu tree,
 * SMS codes, password change, registration and base info.
 */
export const accountFrontRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const sms = app.sms;

  app.get(
    '/admin/user/front/info',
    { schema: { summary: 'The logged-in user, with menu and element codes (spec 3)', tags, querystring: tokenQuery } },
    async (req) => {
      const user = sameToken(req);
      return ok({
        id: user.id,
        roles: user.roles,
        // What a person without an organisation is (the console's organisation label).
        kind: user.kind,
        chiefFarmId: await chiefFarmOf(app.db, user),
        name: user.name,
        description: user.description,
        farmId: user.orgId,
        farmName: user.orgName,
        farmType: user.orgType,
        groupId: user.blocId,
        groupName: user.blocName,
        city: user.city,
        menus: [...user.menus].sort().map((code) => ({ code })),
        elements: [...user.elements].sort().map((code) => ({ code })),
      });
    },
  );

  app.get(
    '/admin/user/front/menus2',
    { schema: { summary: "The user's menu tree", tags, querystring: tokenQuery } },
    async (req) => {
      const user = sameToken(req);
      return ok(await menuTreeFor(app.db, user.menus, req.lang));
    },
  );

  app.get(
    '/admin/user/front/baseInfo',
    { schema: { summary: "The logged-in user's base info (phone, logo as attr2, organisation, group)", tags } },
    async (req) => ok(baseInfo(caller(req))),
  );

  app.get(
    '/admin/user/front/baseInfo1',
    { schema: { summary: 'mobilePhone and attr2 (menu logo) of the caller, looked up by phone', tags, querystring: phoneQuery } },
    async (req) => {
      const user = caller(req);
      const phone = (req.query.phone ?? '').trim();
      refuse([phoneRule(phone)]);
      if (user.mobilePhone === phone) return ok({ mobilePhone: phone, attr2: logoOf(user) });
      // Someone else's phone: only a platform administrator may look it up; to anyone else
      // it answers exactly like a phone nobody has, so numbers cannot be probed.
      if (!user.platformAdmin) throw notFound();
      const { rows } = await app.db.query<{ mobile_phone: string; logo_url: string | null }>(
        `SELECT u.mobile_phone, o.logo_url FROM users u LEFT JOIN organisations o ON o.id = u.org_id WHERE u.mobile_phone = $1`,
        [phone],
      );
      if (!rows[0]) throw notFound();
      return ok({ mobilePhone: rows[0].mobile_phone, attr2: rows[0].logo_url ?? DEMO_LOGO_URL });
    },
  );

  const sendCode = (purpose: SmsPurpose, check: (phone: string) => Promise<RuleError | null>) =>
    async (req: FastifyRequest<{ Querystring: { phone?: string } }>) => {
      const phone = (req.query.phone ?? '').trim();
      refuse([phoneRule(phone)]);
      refuse([await check(phone)]);
      const outcome = await app.db.transaction((tx) => issueCode(tx, sms, phone, purpose)).catch((err: unknown) => {
        req.log.error({ err }, 'SMS delivery failed');
        throw business(M['auth.smsFailed'], {}, (lang) => [{ field: 'phone', message: t(lang, M['auth.smsFailed']) }]);
      });
      if (outcome.kind === 'tooSoon') {
        const seconds = outcome.seconds;
        throw business(M['auth.smsTooSoon'], { seconds }, (lang) => [{ field: 'phone', message: t(lang, M['auth.smsTooSoon'], { seconds }) }]);
      }
      await audit(app.db, req, { action: 'sms.send', resource: 'sms_codes', changes: { phone, purpose } });
      return ok(null, t(req.lang, M['auth.smsSent'], { minutes: SMS_RULES.validMinutes }));
    };

  app.put(
    '/admin/user/front/sms/send',
    {
      config: { public: true },
      schema: { summary: 'Send a registration code; the phone must not be registered yet', tags, querystring: phoneQuery },
    },
    sendCode('register', async (phone) => ((await phoneTaken(app.db, phone)) ? { field: 'phone', key: 'auth.phoneTaken' } : null)),
  );

  app.put(
    '/admin/user/front/sms/sendChangePassword',
    {
      config: { public: true },
      schema: { summary: 'Send a password-change code to the phone of an enabled account', tags, querystring: phoneQuery },
    },
    sendCode('password', async (phone) => ((await enabledOwner(app.db, phone)) ? null : { field: 'phone', key: 'auth.phoneUnknown' })),
  );

  /** Runs `change` with the phone's code consumed in the same transaction; wrong codes are counted. */
  async function withCode(phone: string, purpose: SmsPurpose, code: string, change: (tx: Queryable) => Promise<void>): Promise<void> {
    const outcome = await app.db.transaction(async (tx): Promise<CheckOutcome> => {
      const checked = await consumeCode(tx, phone, purpose, code);
      if (checked.kind === 'ok') await change(tx);
      return checked;
    });
    if (outcome.kind === 'ok') return;
    let key: keyof typeof M = outcome.kind === 'expired' ? 'auth.codeExpired' : 'auth.codeTooManyAttempts';
    if (outcome.kind === 'wrong') key = (await countWrongAttempt(app.db, outcome.id)) ? 'auth.codeTooManyAttempts' : 'auth.codeWrong';
    refuse([{ field: 'code', key }]);
  }

  app.post(
    '/admin/user/front/changePassword',
    {
      // Public: a user who forgot the password is logged out. With a token, the phone
      // must be the caller's own.
      config: { public: true },
      schema: {
        summary: 'Change the password of the account owning the phone, with its SMS code',
        tags,
        querystring: { type: 'object', properties: { phone: str(32), password: str(128), code: str(32) } },
      },
    },
    async (req) => {
      const phone = (req.query.phone ?? '').trim();
      const { password, code } = req.query;
      refuse([passwordRule(password), phoneRule(phone), codeRule(code)]);
      const owner = await enabledOwner(app.db, phone);
      if (!owner) refuse([{ field: 'phone', key: 'auth.phoneUnknown' }]);
      if (req.user && req.user.id !== owner!.id) refuse([{ field: 'phone', key: 'auth.phoneNotYours' }]);
      // Hashing waits for a right code, so wrong guesses cost the server no scrypt work.
      await withCode(phone, 'password', code!, async (tx) => {
        await setPassword(tx, owner!.id, await hashPassword(password!));
        await audit(tx, req, { action: 'password.change', resource: 'users', recordId: owner!.id, actor: owner! });
      });
      return ok(null, t(req.lang, M['auth.passwordChanged']));
    },
  );

  app.post(
    '/admin/user/front/changePasswordWithoutVerify',
    {
      schema: {
        summary: "Set any account's password without a code (platform administrators only)",
        tags,
        querystring: { type: 'object', properties: { username: str(64), password: str(128) } },
      },
    },
    async (req) => {
      requirePlatformAdmin(req);
      const username = (req.query.username ?? '').trim();
      refuse([username ? null : { field: 'username', key: 'auth.usernameRequired' }, passwordRule(req.query.password)]);
      const { rows } = await app.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
      if (!rows[0]) refuse([{ field: 'username', key: 'auth.userUnknown' }]);
      const hash = await hashPassword(req.query.password!);
      await app.db.transaction(async (tx) => {
        await setPassword(tx, rows[0].id, hash);
        await audit(tx, req, { action: 'password.reset', resource: 'users', recordId: rows[0].id, changes: { username } });
      });
      return ok(null, t(req.lang, M['auth.passwordChanged']));
    },
  );

  app.post(
    '/admin/user/front/regist',
    {
      config: { public: true },
      schema: {
        summary: 'Register: stored as a pending request for review; needs a code from sms/send',
        tags,
        body: registBody,
      },
    },
    async (req) => {
      const b: RegistBody = req.body ?? {};
      const username = (b.username ?? '').trim();
      const phone = (b.phone ?? '').trim();
      const name = (b.name ?? '').trim();
      const orgName = (b.orgName ?? '').trim();
      refuse([
        !username ? { field: 'username', key: 'auth.usernameRequired' } : USERNAME_PATTERN.test(username) ? null : { field: 'username', key: 'auth.usernameRule' },
        name ? null : { field: 'name', key: 'auth.nameRequired' },
        phoneRule(phone),
        passwordRule(b.password),
        codeRule(b.code),
        orgName ? null : { field: 'orgName', key: 'auth.orgNameRequired' },
        [0, 1, 3, 4].includes(b.orgType ?? -1) ? null : { field: 'orgType', key: 'auth.orgTypeRule' },
      ]);
      let requestId = 0;
      await withCode(phone, 'register', b.code!, async (tx) => {
        // One registration at a time, so two identical requests cannot both pass the checks.
        await tx.query('SELECT pg_advisory_xact_lock(74204)');
        const dup = await tx.query<{ username: boolean; phone: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1))
                  OR EXISTS (SELECT 1 FROM registration_requests WHERE status = 'pending' AND lower(payload->>'username') = lower($1)) AS username,
                  EXISTS (SELECT 1 FROM users WHERE mobile_phone = $2)
                  OR EXISTS (SELECT 1 FROM registration_requests WHERE status = 'pending' AND payload->>'phone' = $2) AS phone`,
          [username, phone],
        );
        // Throwing here rolls back, so the code is not spent on a refused registration.
        refuse([dup.rows[0].username ? { field: 'username', key: 'auth.usernameTaken' } : null, dup.rows[0].phone ? { field: 'phone', key: 'auth.phoneTaken' } : null]);
        const payload = {
          username,
          name,
          phone,
          passwordHash: await hashPassword(b.password!),
          orgName,
          orgType: b.orgType,
          city: b.city?.trim() || null,
          address: b.address?.trim() || null,
          contact: b.contact?.trim() || null,
          description: b.description?.trim() || null,
        };
        const { rows } = await tx.query<{ id: number }>('INSERT INTO registration_requests(payload) VALUES ($1) RETURNING id', [JSON.stringify(payload)]);
        requestId = rows[0].id;
        const { passwordHash: _omit, ...logged } = payload;
        await audit(tx, req, { action: 'register', resource: 'registration_requests', recordId: requestId, changes: logged, actor: { id: null, username } });
      });
      return ok({ id: requestId, status: 'pending' }, t(req.lang, M['auth.registered']));
    },
  );
};


async function phoneTaken(db: Queryable, phone: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM users WHERE mobile_phone = $1
     UNION ALL SELECT 1 FROM registration_requests WHERE status = 'pending' AND payload->>'phone' = $1 LIMIT 1`,
    [phone],
  );
  return rows.length > 0;
}

async function enabledOwner(db: Queryable, phone: string): Promise<{ id: number; username: string } | null> {
  const { rows } = await db.query<{ id: number; username: string }>('SELECT id, username FROM users WHERE mobile_phone = $1 AND status = 1', [phone]);
  return rows[0] ?? null;
}

async function setPassword(tx: Queryable, userId: number, hash: string): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $2, version = version + 1, updated_at = now() WHERE id = $1', [userId, hash]);
  await endSessions(tx, [userId]);
}
