import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Fragments that must reach the database as plain data, never as SQL or markup. */
export const HOSTILE = [
  "' OR '1'='1",
  "admin'--",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(1)',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '${7*7}{{7*7}}',
  '\u0000',
];

/** A reply that is a proper envelope and leaks nothing of the server's insides. */
export function expectClean(res: LightMyRequestResponse): { status: number; message: string; data: any } {
  expect(res.statusCode).toBeLessThan(500);
  const body = res.json();
  expect(body).toHaveProperty('status');
  expect(body).toHaveProperty('message');
  expect(body).toHaveProperty('data');
  expect(res.body).not.toMatch(/\bat \S+\.(ts|js):\d+|node_modules|SELECT |INSERT |UPDATE |syntax error|pg_|stack/i);
  return body;
}

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });
