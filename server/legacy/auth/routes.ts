import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
// Types only: lets route schemas carry the summary and tags of the generated OpenAPI document.
import type {} from '@fastify/swagger';
import { ok, business, loggedOut } from '../../http/envelope.ts';
import { audit } from '../../audit/log.ts';
import { verifyPassword, burnVerification } from '../../auth/password.ts';
import { admit, failed, succeeded, notCounted } from '../../auth/throttle.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { authMessages as M } from '../../auth/messages.ts';
import { t as tr } from '../../i18n/catalog.ts';

// PostgreSQL text cannot hold NUL; refusing it here keeps such input a 40001, not a database error.
const NO_NUL = '^[^\\u0000]*$';

const loginBody = {
  type: 'object',
  required: ['username', 'password'],
  properties: {
    username: { type: 'string', maxLength: 64, pattern: NO_NUL, description: 'Trimmed before use.' },
    password: { type: 'string', maxLength: 128, pattern: NO_NUL },
  },
} as const;

const tokenQuery = {
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 4096, pattern: NO_NUL } },
} as const;

/** Login and logout (spec 7.1): POST /api/auth/jwt/token and POST /api/auth/jwt/invalid. */
export const authRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.post(
    '/auth/jwt/token',
    { config: { public: true }, schema: { summary: 'Log in; data is the token', tags: ['auth'], body: loginBody } },
    async (req) => {
      const username = req.body.username.trim();
      const { password } = req.body;
      if (!username) throw business(M['auth.usernameRequired'], {}, (lang) => [{ field: 'username', message: tr(lang, M['auth.usernameRequired']) }]);
      if (!password) throw business(M['auth.passwordRequired'], {}, (lang) => [{ field: 'password', message: tr(lang, M['auth.passwordRequired']) }]);

      // Counted before the password is checked: concurrent attempts cannot outrun the limit.
      const admission = await admit(app.db, username, req.ip);
      if (!admission.admitted) {
        await audit(app.db, req, { action: 'login.throttled', resource: 'session', actor: { id: null, username } });
        throw business(M['auth.throttled'], { minutes: Math.max(1, Math.ceil((admission.retryAt.getTime() - Date.now()) / 60_000)) });
      }
      if (admission.delayMs) await sleep(admission.delayMs);

      const { rows } = await app.db.query<{ id: number; username: string; password_hash: string; status: number; token_epoch: number }>(
        'SELECT id, username, password_hash, status, token_epoch FROM users WHERE username = $1',
        [username],
      );
      const user = rows[0];
      const right = user ? await verifyPassword(password, user.password_hash) : (await burnVerification(password), false);
      if (!user || !right) {
        await failed(app.db, admission.ticket);
        await audit(app.db, req, { action: 'login.failed', resource: 'session', actor: { id: user?.id ?? null, username } });
        throw business(M['auth.badCredentials']);
      }
      // Only now, with the password proven, may the reply say the account is disabled.
      if (user.status !== 1) {
        await notCounted(app.db, admission.ticket);
        await audit(app.db, req, { action: 'login.disabled', resource: 'session', actor: { id: user.id, username: user.username } });
        throw business(M['auth.accountDisabled']);
      }
      await succeeded(app.db, admission.ticket);
      const token = await app.tokens.issue(user);
      await audit(app.db, req, { action: 'login', resource: 'session', recordId: user.id, actor: { id: user.id, username: user.username } });
      return ok(token);
    },
  );

  app.post(
    '/auth/jwt/invalid',
    {
      // Public because holding the token is the proof: a console whose header token is
      // gone can still end the session it knows about.
      config: { public: true },
      schema: { summary: 'Log out: revoke the token', tags: ['auth'], querystring: tokenQuery },
    },
    async (req) => {
      const claims = await app.tokens.verify(req.query.token);
      if (!claims) throw loggedOut();
      await app.tokens.revoke(claims);
      await audit(app.db, req, { action: 'logout', resource: 'session', recordId: claims.userId, actor: { id: claims.userId, username: claims.username } });
      return ok(null);
    },
  );
};
