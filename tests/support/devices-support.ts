/** What the device tests share: waiting for the MQTT side to catch up, finding Mosquitto, the demo gateways' secrets. */
import { connect as netConnect } from 'node:net';
import type { Queryable } from '../../server/db/database.ts';

/** Resolves once `check` holds, polling every 25 ms; throws after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

/** Whether the machine's Mosquitto answers on 127.0.0.1:1883 (the tests then run against it too). */
export function mosquittoReachable(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect({ host: '127.0.0.1', port: 1883 });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    setTimeout(() => {
      s.destroy();
      resolve(false);
    }, 500);
  });
}

/** A seeded demo gateway's secret: made per installation, so read from the database. */
export async function gatewaySecret(db: Queryable, code: string): Promise<string> {
  const { rows } = await db.query<{ secret: string }>('SELECT secret FROM device_gateways WHERE code = $1', [code]);
  if (!rows[0]) throw new Error(`no gateway ${code}`);
  return rows[0].secret;
}

/** The server-sent events of /api/devices/events, read as a console reads them. */
export async function openEventStream(base: string, token: string) {
  const ac = new AbortController();
  const res = await fetch(`${base}/api/devices/events`, { headers: { authorization: token }, signal: ac.signal });
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) });
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  await until(() => events.some((e) => e.type === 'hello'));
  return { events, close: () => ac.abort() };
}
