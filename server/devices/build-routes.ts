/**
 * System build under /api/devices/build (docs/devices.md, "System build"): gateways,
 * devices, their channels and placement, listed for every screen of the area and edited
 * from the four system-build screens with their element codes (`{menu}:add`, `:edit`,
 * `:delete`, the menu named in the request). A farm's own records only; 40001 with the
 * field on a duplicate code, an unknown kind or channel, a gateway of another farm, a
 * device with history or used by a scenario. Every change is audited and followed by the
 * broker's identities, the hub and the simulator (service.buildChanged).
 *
 * A gateway's secret (its MQTT password) is answered once, when it is made or renewed; the
 * list never shows it. A device created `direct` is its own MQTT client: a gateway of the
 * same code is made for it and its secret answered once.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { audit } from '../audit/log.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { Params } from '../db/params.ts';
import type { Queryable } from '../db/database.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import type { FieldError } from '../../runtime/protocol/envelope.ts';
import { DEVICE_MENUS } from './routes.ts';
import type { DeviceService } from './service.ts';
import { deviceTopic, READING_KINDS } from './topics.ts';
import { msg } from './messages.ts';
import { referable } from '../resources/references.ts';
import { DEVICE_GATEWAYS } from './references.ts';

const tags = ['devices'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** The system-build screens; each has its add / edit / delete element codes (schemas/menus.json). */
export const BUILD_MENUS = ['equipmentManagement', 'constructSmartSystem', 'basicInfoFarmDevice', 'basicInfoEnvironment'] as const;
export const DEVICE_KINDS = ['sensor', 'switch', 'valve', 'pump', 'airConditioner', 'fertigation', 'camera'] as const;

const code = { type: 'string', minLength: 1, maxLength: 48, pattern: '^[A-Za-z0-9_-]+$' } as const;
const text = (max: number) => ({ type: 'string', maxLength: max, pattern: '^[^<>]*$' }) as const;
const menu = { type: 'string', enum: [...BUILD_MENUS] } as const;

const gatewayFields = { name: { ...text(60), minLength: 1 }, place: text(60), firmware: text(40) } as const;
const deviceFields = {
  name: { ...text(60), minLength: 1 },
  gatewayId: { anyOf: [id, { type: 'null' }] },
  model: text(60),
  placeType: { type: 'string', enum: ['plot', 'greenhouse', 'facility'] },
  place: text(60),
  unit: text(60),
  channels: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 40 } },
  firmware: text(40),
  lng: { anyOf: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'null' }] },
  lat: { anyOf: [{ type: 'number', minimum: -90, maximum: 90 }, { type: 'null' }] },
} as const;

interface DeviceBody {
  menu: string;
  code: string;
  name: string;
  kind: string;
  direct?: boolean;
  gatewayId?: number | null;
  model?: string;
  placeType?: string;
  place?: string;
  unit?: string;
  channels?: string[];
  firmware?: string;
  lng?: number | null;
  lat?: number | null;
}

const GATEWAY_VIEW = `SELECT g.id, g.farm_id AS "farmId", g.code, g.name, g.place, g.firmware, g.online, g.last_seen AS "lastSeen", g.simulated,
    (SELECT count(*)::int FROM devices d WHERE d.gateway_id = g.id) AS devices
  FROM device_gateways g`;
const DEVICE_VIEW = `SELECT d.id, d.farm_id AS "farmId", d.code, d.name, d.kind, d.model, d.gateway_id AS "gatewayId", g.name AS gateway, g.code AS "gatewayCode",
    d.place_type AS "placeType", d.place, d.unit, d.channels, d.firmware, d.lng, d.lat, d.online, d.last_seen AS "lastSeen",
    coalesce(g.simulated, false) AS simulated
  FROM devices d LEFT JOIN device_gateways g ON g.id = d.gateway_id`;

const secret = () => randomBytes(18).toString('base64url');

export function registerBuildRoutes(plain: FastifyInstance, service: DeviceService): void {
  const app = typedRoutes(plain);
  const { db } = plain;
  const root = plain.config.mqttTopicRoot;

  /** The caller, who needs `{menu}:{action}` and to be a farm's account. */
  const editor = (req: FastifyRequest, screen: string, action: 'add' | 'edit' | 'delete'): SessionUser & { orgId: number } => {
    const me = requireCan(req, screen, action);
    if (me.orgId == null) throw forbidden();
    return me as SessionUser & { orgId: number };
  };

  const identity = (farmId: number, deviceCode: string, username: string | null, password?: string) => ({
    username,
    ...(password ? { password } : {}),
    topics: Object.fromEntries((['reading', 'state', 'status', 'ack', 'command'] as const).map((k) => [k, deviceTopic(root, farmId, deviceCode, k)])),
  });

  async function codeTaken(tx: Queryable, value: string): Promise<boolean> {
    const { rows } = await tx.query<{ n: number }>(`SELECT (SELECT count(*) FROM devices WHERE code = $1) + (SELECT count(*) FROM device_gateways WHERE code = $1) AS n`, [value]);
    return Number(rows[0].n) > 0;
  }

  /** The device's fields checked against the farm: kind, channels, gateway. */
  async function checkDevice(tx: Queryable, lang: FastifyRequest['lang'], farmId: number, body: Partial<DeviceBody> & { kind: string }): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    if (!(DEVICE_KINDS as readonly string[]).includes(body.kind)) errors.push({ field: 'kind', message: t(lang, msg['devices.unknownKind'], { kind: body.kind }) });
    const channels = body.channels ?? [];
    const unknown = channels.find((c) => !(READING_KINDS as readonly string[]).includes(c));
    if (unknown) errors.push({ field: 'channels', message: t(lang, msg['devices.unknownChannel'], { channel: unknown }) });
    else if (channels.length && body.kind !== 'sensor') errors.push({ field: 'channels', message: t(lang, msg['devices.channelsSensorOnly']) });
    if (body.gatewayId != null) {
      if (!(await referable(tx, DEVICE_GATEWAYS, { farmId, blocId: null }, [body.gatewayId])).size) errors.push({ field: 'gatewayId', message: t(lang, msg['devices.gatewayMissing']) });
    }
    return errors;
  }

  app.get(
    '/devices/build',
    {
      schema: {
        tags,
        summary: 'System build: the gateways and devices of the caller’s farms with channels, placement (unit, place, coordinates), online and last seen; no secrets',
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: [...DEVICE_MENUS, 'farmMainIndex'] });
      const p = new Params();
      const gateways = await db.query(`${GATEWAY_VIEW} WHERE ${farmScope(me, p, 'g.farm_id', 'read')} ORDER BY g.id`, p.values);
      const q = new Params();
      const devices = await db.query(`${DEVICE_VIEW} WHERE ${farmScope(me, q, 'd.farm_id', 'read')} ORDER BY d.unit, d.id`, q.values);
      return ok({ gateways: gateways.rows, devices: devices.rows, kinds: DEVICE_KINDS, channels: READING_KINDS });
    },
  );

  app.post(
    '/devices/build/gateways',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Register a gateway of the caller’s farm (needs {menu}:add); its MQTT password is answered once',
        body: { type: 'object', additionalProperties: false, required: ['menu', 'code', 'name'], properties: { menu, code, ...gatewayFields } },
      },
    },
    async (req) => {
      const body = req.body as { menu: string; code: string; name: string; place?: string; firmware?: string };
      const me = editor(req, body.menu, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const password = secret();
      const row = await db.transaction(async (tx) => {
        await tx.query('LOCK TABLE device_gateways IN SHARE ROW EXCLUSIVE MODE');
        if (await codeTaken(tx, body.code)) throw invalidInput([{ field: 'code', message: t(req.lang, msg['devices.codeTaken'], { code: body.code }) }], req.lang);
        const { rows } = await tx.query<{ id: number }>(
          'INSERT INTO device_gateways(farm_id, code, name, secret, place, firmware) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
          [me.orgId, body.code, body.name, password, body.place ?? '', body.firmware ?? ''],
        );
        await audit(tx, req, { action: 'devices.gateway.create', resource: 'deviceGateways', recordId: rows[0].id, changes: { menu: body.menu, code: body.code, name: body.name, place: body.place ?? '' } });
        return rows[0];
      });
      await service.buildChanged();
      const gateway = (await db.query(`${GATEWAY_VIEW} WHERE g.id = $1`, [row.id])).rows[0];
      return ok({ gateway, mqtt: { username: body.code, password, topicPrefix: `${root}/${me.orgId}/device/` } });
    },
  );

  app.put(
    '/devices/build/gateways',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Change a gateway’s name, place or firmware note (needs {menu}:edit); its code is its MQTT identity and stays',
        body: { type: 'object', additionalProperties: false, required: ['menu', 'id', 'name'], properties: { menu, id, ...gatewayFields } },
      },
    },
    async (req) => {
      const body = req.body as { menu: string; id: number; name: string; place?: string; firmware?: string };
      const me = editor(req, body.menu, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const { rows } = await db.query<{ id: number }>(
        'UPDATE device_gateways SET name = $3, place = coalesce($4, place), firmware = coalesce($5, firmware) WHERE id = $1 AND farm_id = $2 RETURNING id',
        [body.id, me.orgId, body.name, body.place ?? null, body.firmware ?? null],
      );
      if (!rows[0]) throw notFound(msg['devices.gatewayMissing']);
      await audit(db, req, { action: 'devices.gateway.update', resource: 'deviceGateways', recordId: body.id, changes: { ...body } });
      return ok((await db.query(`${GATEWAY_VIEW} WHERE g.id = $1`, [body.id])).rows[0]);
    },
  );

  app.post(
    '/devices/build/gateways/secret',
    {
      schema: {
        tags,
        summary: 'Give a gateway a new MQTT password (needs {menu}:edit), answered once; its connections with the old one are closed',
        body: { type: 'object', additionalProperties: false, required: ['menu', 'id'], properties: { menu, id } },
      },
    },
    async (req) => {
      const me = editor(req, req.body.menu, 'edit');
      const password = secret();
      const { rows } = await db.query<{ code: string }>('UPDATE device_gateways SET secret = $3 WHERE id = $1 AND farm_id = $2 RETURNING code', [req.body.id, me.orgId, password]);
      if (!rows[0]) throw notFound(msg['devices.gatewayMissing']);
      await audit(db, req, { action: 'devices.gateway.secret', resource: 'deviceGateways', recordId: req.body.id, changes: { menu: req.body.menu } });
      await service.buildChanged();
      return ok({ mqtt: { username: rows[0].code, password, topicPrefix: `${root}/${me.orgId}/device/` } });
    },
  );

  app.delete(
    '/devices/build/gateways',
    {
      schema: {
        tags,
        summary: 'Delete a gateway with no devices (needs {menu}:delete); one with devices is refused (40001)',
        querystring: { type: 'object', additionalProperties: false, required: ['menu', 'id'], properties: { menu, id } },
      },
    },
    async (req) => {
      const me = editor(req, req.query.menu, 'delete');
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ name: string; n: number }>(
          'SELECT g.name, (SELECT count(*)::int FROM devices d WHERE d.gateway_id = g.id) AS n FROM device_gateways g WHERE g.id = $1 AND g.farm_id = $2 FOR UPDATE',
          [req.query.id, me.orgId],
        );
        if (!rows[0]) throw notFound(msg['devices.gatewayMissing']);
        if (rows[0].n > 0) throw invalidInput([{ field: 'id', message: t(req.lang, msg['devices.gatewayHasDevices'], { gateway: rows[0].name, n: rows[0].n }) }], req.lang);
        await tx.query('DELETE FROM device_gateways WHERE id = $1', [req.query.id]);
        await audit(tx, req, { action: 'devices.gateway.delete', resource: 'deviceGateways', recordId: req.query.id, changes: { menu: req.query.menu, name: rows[0].name } });
      });
      await service.buildChanged();
      return ok(null);
    },
  );

  app.post(
    '/devices/build/devices',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Register a device of the caller’s farm (needs {menu}:add): wired to a gateway of the farm, or `direct` (its own MQTT client); answers its MQTT identity (topics; the password once, when direct)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['menu', 'code', 'name', 'kind'],
          properties: { menu, code, kind: { type: 'string', maxLength: 40 }, direct: { type: 'boolean' }, ...deviceFields },
        },
      },
    },
    async (req) => {
      const body = req.body as DeviceBody;
      const me = editor(req, body.menu, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const password = body.direct ? secret() : undefined;
      const created = await db.transaction(async (tx) => {
        await tx.query('LOCK TABLE device_gateways IN SHARE ROW EXCLUSIVE MODE');
        const errors = await checkDevice(tx, req.lang, me.orgId, body);
        if (await codeTaken(tx, body.code)) errors.unshift({ field: 'code', message: t(req.lang, msg['devices.codeTaken'], { code: body.code }) });
        if (errors.length) throw invalidInput(errors, req.lang);
        let gatewayId = body.gatewayId ?? null;
        if (body.direct) {
          const g = await tx.query<{ id: number }>(
            'INSERT INTO device_gateways(farm_id, code, name, secret, place, firmware) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
            [me.orgId, body.code, body.name, password, body.place ?? '', body.firmware ?? ''],
          );
          gatewayId = g.rows[0].id;
        }
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO devices(farm_id, gateway_id, code, name, kind, model, place_type, place, unit, channels, firmware, lng, lat)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
          [me.orgId, gatewayId, body.code, body.name, body.kind, body.model ?? '', body.placeType ?? 'greenhouse', body.place ?? '', body.unit || body.place || '', body.channels ?? [], body.firmware ?? '', body.lng ?? null, body.lat ?? null],
        );
        const { menu: screen, ...changes } = body;
        await audit(tx, req, { action: 'devices.device.create', resource: 'devices', recordId: rows[0].id, changes: { menu: screen, ...changes } });
        return rows[0];
      });
      await service.buildChanged();
      const device = (await db.query<{ gatewayCode: string | null }>(`${DEVICE_VIEW} WHERE d.id = $1`, [created.id])).rows[0];
      return ok({ device, mqtt: identity(me.orgId, body.code, device.gatewayCode, password) });
    },
  );

  app.put(
    '/devices/build/devices',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Change a device (needs {menu}:edit): name, model, gateway (null takes it off: it can no longer speak), placement, channels; its code and kind stay',
        body: { type: 'object', additionalProperties: false, required: ['menu', 'id', 'name'], properties: { menu, id, ...deviceFields } },
      },
    },
    async (req) => {
      const body = req.body as Omit<DeviceBody, 'code' | 'kind'> & { id: number };
      const me = editor(req, body.menu, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ kind: string; gateway_id: number | null; channels: string[] }>('SELECT kind, gateway_id, channels FROM devices WHERE id = $1 AND farm_id = $2 FOR UPDATE', [body.id, me.orgId]);
        const before = rows[0];
        if (!before) throw notFound(msg['devices.deviceMissing']);
        const errors = await checkDevice(tx, req.lang, me.orgId, { ...body, kind: before.kind, channels: body.channels ?? before.channels });
        if (errors.length) throw invalidInput(errors, req.lang);
        await tx.query(
          `UPDATE devices SET name = $2, gateway_id = $3, model = coalesce($4, model), place_type = coalesce($5, place_type), place = coalesce($6, place),
                  unit = coalesce(nullif($7, ''), $6, unit), channels = coalesce($8, channels), firmware = coalesce($9, firmware), lng = $10, lat = $11
            WHERE id = $1`,
          [body.id, body.name, body.gatewayId === undefined ? before.gateway_id : body.gatewayId, body.model ?? null, body.placeType ?? null, body.place ?? null, body.unit ?? null, body.channels ?? null, body.firmware ?? null, body.lng ?? null, body.lat ?? null],
        );
        const { menu: screen, ...changes } = body;
        await audit(tx, req, { action: 'devices.device.update', resource: 'devices', recordId: body.id, changes: { menu: screen, ...changes } });
      });
      await service.buildChanged();
      return ok((await db.query(`${DEVICE_VIEW} WHERE d.id = $1`, [body.id])).rows[0]);
    },
  );

  app.delete(
    '/devices/build/devices',
    {
      schema: {
        tags,
        summary: 'Delete a device that never reported and was never commanded, and is in no scenario (needs {menu}:delete); otherwise refused (40001): take it off its gateway to retire it',
        querystring: { type: 'object', additionalProperties: false, required: ['menu', 'id'], properties: { menu, id } },
      },
    },
    async (req) => {
      const me = editor(req, req.query.menu, 'delete');
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ name: string; code: string; gateway_id: number | null; seen: boolean }>(
          `SELECT name, code, gateway_id, last_seen IS NOT NULL OR EXISTS (SELECT 1 FROM device_commands c WHERE c.device_id = d.id) AS seen
             FROM devices d WHERE id = $1 AND farm_id = $2 FOR UPDATE`,
          [req.query.id, me.orgId],
        );
        const d = rows[0];
        if (!d) throw notFound(msg['devices.deviceMissing']);
        if (d.seen) throw invalidInput([{ field: 'id', message: t(req.lang, msg['devices.hasHistory'], { device: d.name }) }], req.lang);
        const used = await tx.query<{ name: string }>(`SELECT name FROM device_scenarios WHERE farm_id = $2 AND (action->>'deviceId')::int = $1 LIMIT 1`, [req.query.id, me.orgId]);
        if (used.rows[0]) throw invalidInput([{ field: 'id', message: t(req.lang, msg['devices.usedByScenario'], { device: d.name, scenario: used.rows[0].name }) }], req.lang);
        await tx.query('DELETE FROM devices WHERE id = $1', [req.query.id]);
        // A direct device's own gateway goes with it.
        await tx.query('DELETE FROM device_gateways g WHERE g.id = $1 AND g.code = $2 AND NOT EXISTS (SELECT 1 FROM devices x WHERE x.gateway_id = g.id)', [d.gateway_id, d.code]);
        await audit(tx, req, { action: 'devices.device.delete', resource: 'devices', recordId: req.query.id, changes: { menu: req.query.menu, code: d.code, name: d.name } });
      });
      await service.buildChanged();
      return ok(null);
    },
  );
}
