/**
 * The devices module (docs/devices.md): starts the device service with the app, closes it
 * with the app (brokers, clients, timers, open event streams), and registers its routes.
 * `deviceServiceOf(app)` finds the service of an app (tests and the bench reach the hub,
 * the simulator and the counters through it).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { registerDeviceRoutes } from './routes.ts';
import { DeviceService } from './service.ts';

const services = new WeakMap<object, DeviceService>();

export function deviceServiceOf(app: FastifyInstance): DeviceService {
  const s = services.get(app.server);
  if (!s) throw new Error('the devices module is not registered on this app');
  return s;
}

export const devicesRoutes: FastifyPluginAsync = async (app) => {
  const service = new DeviceService(app.db, app.config, (m) => app.log.info(m), app.sms);
  await service.start();
  services.set(app.server, service);
  app.addHook('preClose', async () => {
    for (const end of [...service.streams]) end();
  });
  app.addHook('onClose', async () => {
    await service.close();
  });
  registerDeviceRoutes(app, service);
};
