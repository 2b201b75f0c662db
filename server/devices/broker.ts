/**
 * The embedded MQTT broker (aedes), run when no MQTT_URL is configured. It knows who may
 * publish what: a gateway connects with its code and secret (device_gateways) and may
 * publish device messages only for itself and the devices wired to it, of its own farm; the
 * server's own client (SERVER_PRINCIPAL, a password made per process) may publish commands
 * only. Anything else is refused, and aedes closes the offender's connection (MQTT-3.3.5-2).
 * Clients connect in process (`connectInProcess`, what the server and the simulator use) or
 * over TCP when a port is configured (MQTT_PORT), or over TLS (MQTT_TLS_PORT with a
 * certificate), for real gateways; both listeners share the logins and the throttle.
 */
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readFileSync } from 'node:fs';
import { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { parseTopic } from './topics.ts';
import { isLoopback, LoginThrottle } from './login-throttle.ts';

export const SERVER_PRINCIPAL = 'farm-backoffice-server';

interface Principal {
  kind: 'server' | 'gateway';
  farmId: number;
  /** Device codes this client may speak for (the gateway's own and its devices'). */
  devices: Set<string>;
  /** The gateway's code (its username), for refreshing after the system-build screens change it. */
  gateway?: string;
}

export interface EmbeddedBroker {
  aedes: Aedes;
  serverPassword: string;
  /** A client's end of an in-process connection; the broker handles the other end. */
  connectInProcess(): Duplex;
  /** The TCP port when listening (MQTT_PORT), else null. */
  port: number | null;
  /** The MQTTS port when listening (MQTT_TLS_PORT), else null. */
  tlsPort: number | null;
  /** Publishes refused by authorizePublish since start (spoofing attempts). */
  refused: number;
  /** Failed logins per address (its clock is settable for tests). */
  throttle: LoginThrottle;
  /**
   * After the system-build screens change gateways or devices: every connected gateway's
   * devices are read again; a gateway deleted or given a new secret is disconnected.
   */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export interface BrokerOptions {
  root: string;
  port?: number;
  /** The TCP port's bind address (MQTT_HOST); loopback unless configured. */
  host?: string;
  /** An MQTTS listener on `host` with PEM certificate and key files. */
  tls?: { port: number; certFile: string; keyFile: string };
  log?: (msg: string) => void;
  /** A gateway (its code) connected or disconnected: the hub marks it and its devices. */
  onPresence?: (gatewayCode: string, online: boolean) => void;
}

export async function startEmbeddedBroker(db: Database, opts: BrokerOptions): Promise<EmbeddedBroker> {
  // Unreadable PEM files stop the start here, naming the file, before anything listens.
  const tlsFiles = opts.tls ? { cert: readPem(opts.tls.certFile), key: readPem(opts.tls.keyFile) } : null;
  const serverPassword = randomBytes(18).toString('base64url');
  const principals = new WeakMap<Client, Principal>();
  /** Connected gateway clients with the secret they connected with (refresh). */
  const gateways = new Map<Client, { principal: Principal; secret: string }>();
  const aedes = await Aedes.createBroker({ drainTimeout: 30_000 });
  const state = { refused: 0 };
  const throttle = new LoginThrottle();

  aedes.authenticate = (client, username, password, done) => {
    // In-process connections (the server, the simulator) have no address.
    const address = (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
    const key = address ?? 'in-process';
    const fail = (why?: string) => {
      if (address) throttle.failed(key);
      if (why) opts.log?.(`[mqtt] refused the login of "${username ?? ''}" from ${key}: ${why}`);
      const err = new Error('bad username or password') as AuthenticateError;
      err.returnCode = 4;
      done(err, false);
    };
    if (address && throttle.blocked(key)) {
      opts.log?.(`[mqtt] refused a login from ${key}: too many failed logins, wait a minute`);
      const err = new Error('too many failed logins') as AuthenticateError;
      err.returnCode = 5;
      return done(err, false);
    }
    const secret = password?.toString('utf8') ?? '';
    if (!username) return fail();
    if (username === SERVER_PRINCIPAL) {
      if (secret !== serverPassword) return fail();
      principals.set(client, { kind: 'server', farmId: 0, devices: new Set() });
      return done(null, true);
    }
    db.query<{ farm_id: number; secret: string; simulated: boolean; devices: string[] }>(
      `SELECT g.farm_id, g.secret, g.simulated, coalesce(array_agg(d.code) FILTER (WHERE d.id IS NOT NULL), '{}') AS devices
         FROM device_gateways g LEFT JOIN devices d ON d.gateway_id = g.id
        WHERE g.code = $1 GROUP BY g.id`,
      [username],
    ).then(
      ({ rows }) => {
        const g = rows[0];
        if (!g || g.secret !== secret) return fail();
        // The demo gateways' passwords are in the code and the docs: good on this machine
        // (the simulator, a demo), never from the network.
        if (g.simulated && !isLoopback(address)) return fail('a demo (simulated) gateway connects only from this machine');
        if (address) throttle.succeeded(key);
        const principal: Principal = { kind: 'gateway', farmId: Number(g.farm_id), devices: new Set([username, ...g.devices]), gateway: username };
        principals.set(client, principal);
        gateways.set(client, { principal, secret });
        done(null, true);
      },
      () => fail(),
    );
  };

  aedes.on('client', (client) => {
    const who = gateways.get(client);
    if (who?.principal.gateway) opts.onPresence?.(who.principal.gateway, true);
  });
  aedes.on('clientDisconnect', (client) => {
    const who = gateways.get(client);
    gateways.delete(client);
    // Another connection of the same gateway (a reconnect that overtook the old socket) keeps it online.
    const code = who?.principal.gateway;
    if (code && ![...gateways.values()].some((g) => g.principal.gateway === code)) opts.onPresence?.(code, false);
  });

  aedes.authorizePublish = (client, packet, done) => {
    if (!client) return done(null); // a stored last will of a client gone before it was judged
    const who = principals.get(client);
    const parts = parseTopic(opts.root, packet.topic);
    let allowed = false;
    if (who?.kind === 'server') allowed = !!parts && parts.kind === 'command';
    else if (who?.kind === 'gateway') allowed = !!parts && parts.kind !== 'command' && parts.farmId === who.farmId && who.devices.has(parts.deviceCode);
    if (allowed) return done(null);
    state.refused++;
    opts.log?.(`[mqtt] refused a publish by "${client.id}" on ${packet.topic}: a device may only publish on its own topics`);
    done(new Error('not authorised to publish on this topic'));
  };

  aedes.authorizeSubscribe = (client, sub, done) => {
    const who = principals.get(client);
    if (who?.kind === 'server') return done(null, sub);
    // A gateway may listen to the commands of its own devices only.
    const parts = parseTopic(opts.root, sub.topic);
    const own = !!parts && parts.kind === 'command' && who?.kind === 'gateway' && parts.farmId === who.farmId && who.devices.has(parts.deviceCode);
    done(null, own ? sub : null);
  };

  const servers: Server[] = [];
  const listen = async (server: Server, wanted: number): Promise<number | null> => {
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(wanted, opts.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : null;
  };
  const port = opts.port !== undefined ? await listen(createServer(aedes.handle), opts.port) : null;
  const tlsPort = opts.tls && tlsFiles ? await listen(createTlsServer({ ...tlsFiles, minVersion: 'TLSv1.2' }, aedes.handle), opts.tls.port) : null;

  return {
    aedes,
    serverPassword,
    port,
    tlsPort,
    throttle,
    get refused() {
      return state.refused;
    },
    async refresh() {
      const { rows } = await db.query<{ code: string; farm_id: number; secret: string; devices: string[] }>(
        `SELECT g.code, g.farm_id, g.secret, coalesce(array_agg(d.code) FILTER (WHERE d.id IS NOT NULL), '{}') AS devices
           FROM device_gateways g LEFT JOIN devices d ON d.gateway_id = g.id GROUP BY g.id`,
      );
      const byCode = new Map(rows.map((r) => [r.code, r]));
      for (const [client, { principal, secret }] of [...gateways]) {
        const g = byCode.get(principal.gateway ?? '');
        if (!g || g.secret !== secret || Number(g.farm_id) !== principal.farmId) {
          gateways.delete(client);
          principal.devices.clear();
          client.close();
          continue;
        }
        principal.devices.clear();
        for (const code of [principal.gateway as string, ...g.devices]) principal.devices.add(code);
      }
    },
    connectInProcess() {
      const [clientEnd, brokerEnd] = duplexPair();
      aedes.handle(brokerEnd);
      return clientEnd;
    },
    async close() {
      for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
    },
  };
}

function readPem(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`[mqtt] cannot read the TLS file ${file}: ${(err as Error).message}`);
  }
}

/** Two connected duplex streams (Node 20 has no stream.duplexPair). */
export function duplexPair(): [Duplex, Duplex] {
  const make = (peer: () => Duplex) =>
    new Duplex({
      read() {},
      write(chunk, _enc, cb) {
        peer().push(chunk);
        cb();
      },
      final(cb) {
        peer().push(null);
        cb();
      },
      destroy(err, cb) {
        const other = peer();
        if (!other.destroyed) other.destroy();
        cb(err);
      },
    });
  const a: Duplex = make(() => b);
  const b: Duplex = make(() => a);
  return [a, b];
}
