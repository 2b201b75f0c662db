/** What the device tests share: waiting for the MQTT side to catch up, and finding Mosquitto. */
import { connect as netConnect } from 'node:net';

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
