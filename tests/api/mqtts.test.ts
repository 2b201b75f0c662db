/**
 * Issue 26 item 6: the embedded broker's MQTTS listener (MQTT_TLS_PORT with a certificate)
 * and the demo gateways' secrets made per installation. The broker runs over a clone of the
 * seeded database; the certificate is the test fixture in tests/fixtures/tls.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../../server/devices/broker.ts';
import { seededImage } from '../support/engines.ts';
import { gatewaySecret } from '../support/devices-support.ts';

const certFile = 'tests/fixtures/tls/broker-cert.pem';
const keyFile = 'tests/fixtures/tls/broker-key.pem';

/** The CONNACK code a login got (0 accepted), or the error's code when the connection failed. */
function login(url: string, username: string, password: string, extra: object = {}): Promise<number | string> {
  return new Promise((resolve) => {
    const c = connect(url, { username, password, reconnectPeriod: 0, connectTimeout: 3000, clientId: `t-${Math.random().toString(36).slice(2)}`, ...extra });
    const done = (code: number | string) => {
      c.end(true);
      resolve(code);
    };
    c.once('connect', () => done(0));
    c.once('error', (e) => done((e as { code?: number | string }).code ?? String(e)));
    c.once('close', () => done('closed'));
  });
}

describe('the embedded broker over TLS', () => {
  let db: Database;
  let broker: EmbeddedBroker;
  let gateway: string;
  beforeAll(async () => {
    db = await openPglite(undefined, await seededImage());
    broker = await startEmbeddedBroker(db, { root: 'farm', tls: { port: 0, certFile, keyFile } });
    gateway = (await db.query<{ code: string }>('SELECT code FROM device_gateways WHERE simulated ORDER BY code LIMIT 1')).rows[0].code;
  });
  afterAll(async () => {
    await broker?.close();
    await db?.close();
  });

  it('accepts a gateway over MQTTS that trusts the certificate, and refuses a wrong secret there too', async () => {
    expect(broker.port).toBeNull();
    const url = `mqtts://127.0.0.1:${broker.tlsPort}`;
    const ca = readFileSync(certFile);
    const secret = await gatewaySecret(db, gateway);
    expect(await login(url, gateway, secret, { ca, servername: 'localhost' })).toBe(0);
    expect(await login(url, gateway, `${secret}x`, { ca, servername: 'localhost' })).toBe(4);
  });

  it('speaks no plain MQTT on the TLS port, and a client that does not trust the certificate is refused', async () => {
    const secret = await gatewaySecret(db, gateway);
    expect(await login(`mqtt://127.0.0.1:${broker.tlsPort}`, gateway, secret)).not.toBe(0);
    expect(await login(`mqtts://127.0.0.1:${broker.tlsPort}`, gateway, secret, { rejectUnauthorized: true })).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('has demo gateway secrets made for this installation, not a constant of the code', async () => {
    const { rows } = await db.query<{ secret: string }>('SELECT secret FROM device_gateways WHERE simulated');
    expect(rows.length).toBeGreaterThan(1);
    for (const { secret } of rows) {
      expect(secret).not.toMatch(/demo-secret/);
      expect(secret.length).toBeGreaterThanOrEqual(16);
    }
    expect(new Set(rows.map((r) => r.secret)).size).toBe(rows.length);
  });
});

describe('MQTT_TLS_* configuration', () => {
  it('needs the port, the certificate and the key together, and turns the simulator off by default', () => {
    expect(() => loadConfig({ MQTT_TLS_PORT: '8883' })).toThrow(/MQTT_TLS_PORT, MQTT_TLS_CERT and MQTT_TLS_KEY go together/);
    expect(() => loadConfig({ MQTT_TLS_PORT: 'x', MQTT_TLS_CERT: certFile, MQTT_TLS_KEY: keyFile })).toThrow(/must be a port number/);
    const config = loadConfig({ MQTT_TLS_PORT: '8883', MQTT_TLS_CERT: certFile, MQTT_TLS_KEY: keyFile });
    expect(config.mqttTls?.port).toBe(8883);
    expect(config.deviceSimulator).toBe(false);
    expect(loadConfig({}).deviceSimulator).toBe(true);
  });

  it('stops at start, naming the file, when the certificate cannot be read', async () => {
    await expect(startEmbeddedBroker({} as Database, { root: 'farm', tls: { port: 0, certFile: 'no/such/cert.pem', keyFile } })).rejects.toThrow(/cannot read the TLS file .*no\/such\/cert\.pem/);
  });
});
