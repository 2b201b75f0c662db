import Fastify, { type FastifyInstance, type FastifyError, type FastifyPluginAsync } from 'fastify';
import { existsSync } from 'node:fs';
import type { Database } from './db/database.ts';
import type { ServerConfig } from './config.ts';
import { sharedCompilersFactory } from './http/shared-compilers.ts';
import { TokenService, tokenFromHeader } from './auth/tokens.ts';
import type { SessionUser } from './auth/session-user.ts';
import { SessionUserCache } from './auth/session-cache.ts';
import type { ErrorObject } from 'ajv';
import { ApiError, Status, type Envelope } from './http/envelope.ts';
import { fieldErrors } from './resources/validation.ts';
import { ANNOTATION_KEYWORDS } from '../runtime/schema/ajv.ts';
import { pickLang, type Lang } from './i18n/lang.ts';
import { t } from './i18n/catalog.ts';
import { apiModules, pageModules } from './modules.ts';
import { registerOpenApi } from './resources/openapi.ts';
import { registerCompression } from './http/compression.ts';
import { registerConsoleFiles, sendConsoleIndex } from './http/static.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerInputGuards } from './http/input-guard.ts';
import { addInputKeywords } from '../runtime/schema/input-rules.ts';
import { createSmsSender, type SmsSender } from './sms/sender.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    tokens: TokenService;
    /** The session users, cached while their epoch and the session generation hold (server/auth/session-cache.ts). */
    sessionUsers: SessionUserCache;
    config: ServerConfig;
    /** Codes and notices by text message: one sender for the whole server (server/sms/sender.ts). */
    sms: SmsSender;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** The raw token the caller authenticated with. */
    token: string | null;
    lang: Lang;
  }
  interface FastifyContextConfig {
    /** Reachable without a token (login, registration, SMS sending, public article reads). */
    public?: boolean;
  }
}

export const BODY_LIMIT = 256 * 1024;

export interface AppOptions {
  db: Database;
  config: ServerConfig;
  tokens?: TokenService;
  logger?: boolean;
}

/** The whole server as a Fastify instance; `main.ts` listens, tests use inject or port 0. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: 'info' } : false,
    bodyLimit: BODY_LIMIT,
    trustProxy: process.env.TRUST_PROXY === '1',
    // Registering the API compiles hundreds of route schemas: seconds on a quiet machine, more
    // than Fastify's 10 s default on a loaded 2-core one, where a start must still succeed
    // (PLUGIN_TIMEOUT_MS changes it).
    pluginTimeout: Number(process.env.PLUGIN_TIMEOUT_MS) || 120_000,
    // Fastify's own compilers, with what they compiled shared by the process's servers.
    schemaController: { compilersFactory: sharedCompilersFactory },
    // verbose: errors carry their schema, so that messages name the field by its x-title
    // (runtime/schema/messages.ts); the annotation keywords are known, not strict-mode noise.
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, verbose: true, keywords: [...ANNOTATION_KEYWORDS] }, plugins: [addInputKeywords] },
  });
  app.decorate('db', opts.db);
  app.decorate('tokens', opts.tokens ?? (await TokenService.create(opts.db)));
  app.decorate('sessionUsers', new SessionUserCache(opts.db));
  app.decorate('config', opts.config);
  app.decorate('sms', createSmsSender(opts.config, app.log));
  app.decorateRequest('user', null);
  app.decorateRequest('token', null);
  app.decorateRequest('lang', 'zh');

  app.addHook('onRequest', async (req) => {
    req.lang = pickLang(req.headers['accept-language'], req.headers.cookie);
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    const { httpStatus, body } = toEnvelope(err, req.lang, req.routeOptions?.bodyLimit);
    if (httpStatus >= 500) req.log.error(err);
    return reply.code(httpStatus).send(body);
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api') {
      return reply.code(404).send({ status: Status.NOT_FOUND, message: t(req.lang, 'common.routeNotFound'), data: null });
    }
    // Client-side routes: every other path is the console's index.html.
    if (req.method === 'GET' && existsSync(`${opts.config.distDir}/index.html`)) return sendConsoleIndex(reply);
    return reply.code(404).send('Not found');
  });

  // Before any route: every route's schemas and handler pass through it.
  registerInputGuards(app);
  await registerSecurityHeaders(app, opts.config);
  await registerCompression(app);
  await registerOpenApi(app);
  await app.register(api, { prefix: '/api' });
  for (const mod of pageModules) await app.register(mod);

  await registerConsoleFiles(app, opts.config.distDir);
  return app;
}

/** Every /api route needs a valid token unless its config says public. */
const api: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (req) => {
    const token = tokenFromHeader(req.headers.authorization);
    if (token) {
      const claims = await app.tokens.verify(token);
      const user = claims ? await app.sessionUsers.get(claims) : null;
      if (user && user.status === 1) {
        req.user = user;
        req.token = token;
      } else if (!req.routeOptions.config.public) {
        throw new ApiError(Status.LOGGED_OUT, 'auth.tokenInvalid');
      }
    } else if (!req.routeOptions.config.public) {
      throw new ApiError(Status.LOGGED_OUT, 'auth.tokenMissing');
    }
  });
  for (const mod of apiModules) await app.register(mod);
};

function toEnvelope(err: FastifyError | ApiError, lang: Lang, bodyLimit = BODY_LIMIT): { httpStatus: number; body: Envelope<unknown> } {
  if (err instanceof ApiError) {
    const details = typeof err.details === 'function' ? err.details(lang) : err.details;
    return {
      httpStatus: err.httpStatus,
      body: { status: err.status, message: t(lang, err.key, err.params), data: details ? { errors: details } : null },
    };
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    const errors = fieldErrors(fe.validation as ErrorObject[], lang, fe.validationContext);
    const detail = errors.map((e) => e.message).join(lang === 'zh' ? '；' : '; ');
    return { httpStatus: 400, body: { status: Status.BUSINESS, message: t(lang, 'common.invalidInput', { detail }), data: { errors } } };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { httpStatus: 400, body: { status: Status.BUSINESS, message: t(lang, 'common.malformedJson'), data: null } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { httpStatus: 413, body: { status: Status.BUSINESS, message: t(lang, 'common.bodyTooLarge', { limit: bodyLimit }), data: null } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { httpStatus: 415, body: { status: Status.BUSINESS, message: t(lang, 'common.unsupportedMediaType'), data: null } };
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { httpStatus: fe.statusCode, body: { status: Status.BUSINESS, message: t(lang, 'common.invalidInput', { detail: fe.code ?? 'request' }), data: null } };
  }
  // Input PostgreSQL cannot take (a NUL byte, an unrepresentable value) is the caller's error.
  const sqlState = (err as { code?: unknown }).code;
  if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState)) {
    return { httpStatus: 400, body: { status: Status.BUSINESS, message: t(lang, 'common.invalidInput', { detail: 'value' }), data: null } };
  }
  // A unique or reference rule that a module's own checks lost a race against.
  if (sqlState === '23505' || sqlState === '23503') {
    const key = sqlState === '23505' ? 'common.duplicate' : 'common.referenceConflict';
    return { httpStatus: 400, body: { status: Status.BUSINESS, message: t(lang, key), data: null } };
  }
  // Never a stack trace or SQL in a reply: the log has them.
  return { httpStatus: 500, body: { status: Status.INTERNAL, message: t(lang, 'common.internal'), data: null } };
}
