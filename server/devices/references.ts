import type { ReferenceTarget } from '../resources/references.ts';

/** A farm's table of this module as a reference target of the engine's rule (server/resources/references.ts). */
function farmTable(name: string, table: string, title: ReferenceTarget['title']): ReferenceTarget {
  return { name, title, scope: 'farm', table, rows: () => 'TRUE', owner: (alias) => ({ farm: `${alias}.farm_id`, bloc: 'NULL::integer' }), data: () => `'{}'::jsonb` };
}

/** The gateways a device is wired to: the device's own farm's only. */
export const DEVICE_GATEWAYS = farmTable('deviceGateways', 'device_gateways', { zh: '网关', en: 'Gateway', es: 'Pasarela' });

/** The devices a scenario actuates: the scenario's own farm's only. */
export const DEVICES = farmTable('devices', 'devices', { zh: '设备', en: 'Device', es: 'Dispositivo' });
