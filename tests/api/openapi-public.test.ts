/**
 * Issue 24 item 6 (the OpenAPI half): the OpenAPI document says which operations need a
 * token, and says it truly. Every operation is called without one: those declared public
 * (`security: []`: login, SMS codes, registration, health, the console's settings, public
 * reads, the public trace page) answer something other than 40101, every other one answers
 * 40101 (HTTP 401) and carries the bearer requirement. The calls carry no body or query,
 * so a public operation refuses them or answers a read; nothing is changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; schema?: { type?: string | string[] } }[];
}

describe.each(engines())('public operations in the OpenAPI document on $name', (engine) => {
  let t: TestApp;
  let spec: { security?: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    t = await createTestApp(engine);
    spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  });
  afterAll(() => t?.close());

  it('declares security: [] exactly on the operations that answer without a token', { timeout: 120_000 }, async () => {
    expect(spec.security).toEqual([{ token: [] }]);
    const declaredPublic: string[] = [];
    const answeredPublic: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const where = `${method.toUpperCase()} ${path}`;
        const isPublic = Array.isArray(op.security) && op.security.length === 0;
        if (isPublic) declaredPublic.push(where);
        else expect(op.security ?? spec.security, where).toEqual([{ token: [] }]);
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const type = op.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema?.type;
          return type === 'integer' || type === 'number' ? '1' : 'A1B2C3';
        });
        const res = await t.app.inject({ method: method.toUpperCase() as 'GET', url });
        let status: unknown;
        try {
          status = res.json().status;
        } catch {
          status = undefined;
        }
        const refused = res.statusCode === 401 && status === 40101;
        if (!refused) answeredPublic.push(where);
        expect(res.statusCode, `${where} → ${res.statusCode} ${res.body.slice(0, 120)}`).toBeLessThan(500);
      }
    }
    expect(answeredPublic.sort()).toEqual(declaredPublic.sort());
    // The ones the issue names, so that an empty list cannot pass.
    for (const op of ['POST /api/auth/jwt/token', 'GET /api/health', 'GET /t/{code}', 'PUT /api/admin/user/front/sms/send', 'GET /api/articles/public/{id}']) expect(declaredPublic).toContain(op);
  });
});
