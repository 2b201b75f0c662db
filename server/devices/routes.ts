/**
 * HTTP of the devices area under /api/devices (docs/devices.md, "API"): the units with live
 * state, commands, readings as time buckets, scenarios and alarms, the weather, and the
 * event stream the consoles listen to. Every route checks the caller's codes and farm.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { can } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';
import { audit } from '../audit/log.ts';
import { t } from '../i18n/catalog.ts';
import { business } from '../http/envelope.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope } from '../materials/ledger.ts';
import { ACTION_OF_KIND, ACTIONS, commandView, RUN_FOR_MAX_S, RUN_FOR_MIN_S, type Action, type CommandRow } from './commands.ts';
import type { DeviceService } from './service.ts';
import { autoBucket, BUCKETS, MAX_POINTS, parsePlaces, pointsOf, readingSeries, unitsOverview, type Bucket } from './reads.ts';
import { READING_KINDS, type ReadingKind } from './topics.ts';
import type { KnownDevice } from './hub.ts';
import { msg } from './messages.ts';
import type { FieldError } from '../../runtime/protocol/envelope.ts';
import { registerScenarioRoutes } from './scenario-routes.ts';
import { registerAlarmRoutes } from './alarm-routes.ts';
import { registerEventStream } from './event-stream.ts';
import { registerBuildRoutes } from './build-routes.ts';
import { registerFieldTrendRoutes } from './field-trend.ts';
import { registerHomeDeviceRoutes } from './home-routes.ts';
import { registerRawExportRoute } from './raw-export.ts';

const tags = ['devices'];

/** The screens that command devices; each has its `:control` element code (schemas/menus.json). */
export const CONTROL_MENUS = [
  'farmControllRoomEquipmentControll', 'equipmentControllIndex', 'plantManagementEquipmentControll', 'spirit', 'aircondition', 'entityControll',
] as const;
/**
 * The device kinds each control screen commands (its screen documents' `kinds`, or every
 * actuator for the screens that show every unit): a command names its screen (`menu`), and
 * a pump is not switched from the air-conditioner screen.
 */
export const CONTROL_KINDS: Record<(typeof CONTROL_MENUS)[number], readonly string[]> = {
  farmControllRoomEquipmentControll: ['switch', 'pump', 'valve', 'fertigation', 'airConditioner'],
  equipmentControllIndex: ['switch', 'pump', 'valve', 'fertigation'],
  plantManagementEquipmentControll: ['switch', 'pump', 'valve', 'fertigation'],
  spirit: ['fertigation'],
  aircondition: ['airConditioner'],
  entityControll: ['switch', 'pump', 'valve', 'fertigation', 'airConditioner'],
};
/** Every screen of the area that reads devices, readings or alarms. */
export const DEVICE_MENUS = [
  ...CONTROL_MENUS, 'farmControllRoomIndex', 'equipmentManagement', 'constructSmartSystem', 'basicInfoFarmDevice', 'basicInfoEnvironment',
  'equipmentSunlightGreenhouse', 'farmDeviceIndex', 'environmentIndex', 'weatherSituation', 'shangSituation', 'scenarioAdd', 'deviceAlarms',
];
const SCENARIO_MENUS = ['scenarioAdd'];

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

export function registerDeviceRoutes(plain: FastifyInstance, service: DeviceService): void {
  const app = typedRoutes(plain);
  const { db } = plain;
  const cfg = plain.config;

  app.get(
    '/devices/units',
    {
      schema: {
        tags,
        summary: 'The units (greenhouses, irrigation, the fertigation machine) of the caller’s farms with their devices: state, online, latest readings, a pending command, open alarms',
        querystring: { type: 'object', additionalProperties: false, properties: { kinds: { type: 'string', maxLength: 200, pattern: '^[A-Za-z,]*$' } } },
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const kinds = req.query.kinds ? req.query.kinds.split(',').filter(Boolean) : undefined;
      return ok(await unitsOverview(db, me, cfg.deviceOfflineAfterS, kinds));
    },
  );

  app.post(
    '/devices/commands',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Send a command to a device: switch on/off (a switch, pump or fan on for `runForS` seconds, switched off by the server), open a valve for N minutes, air-conditioner mode and set-point, a fertigation recipe. Pending until the device acknowledges; times out; refused at once for an offline device',
        description: `Needs \`{menu}:control\` for the screen \`menu\` it is sent from (one of ${CONTROL_MENUS.join(', ')}), a screen that controls the device's kind (else 40001 on \`menu\`), and an account of the device's own farm: the platform administrator, the configurer, a bloc's or a region's account read devices but never actuate them (40301). A device out of the caller's reading scope is 40401. A later command on the same device supersedes a pending one.`,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['deviceId', 'action', 'params', 'menu'],
          properties: {
            deviceId: id,
            action: { type: 'string', enum: [...ACTIONS] },
            params: { type: 'object' },
            menu: { type: 'string', enum: [...CONTROL_MENUS] },
          },
        },
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: [...CONTROL_MENUS] });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as { deviceId: number; action: Action; params: Record<string, unknown>; menu: string };
      if (!can(me, body.menu, 'control')) throw forbidden();
      const device = await deviceInScope(db, me, body.deviceId);
      if (!device) throw notFound(msg['devices.deviceMissing']);
      // Actuating is the farm's own act: a platform, bloc or region account that can see the
      // device (reading scope) may not switch it, whatever element codes its role holds.
      if (me.orgId == null || me.orgId !== device.farmId) throw forbidden(msg['devices.notYourFarm']);
      if (!CONTROL_KINDS[body.menu as (typeof CONTROL_MENUS)[number]].includes(device.kind)) {
        throw business(msg['devices.wrongScreen'], { device: device.name }, (lang) => [{ field: 'menu', message: t(lang, msg['devices.wrongScreen'], { device: device.name }) }]);
      }
      if (ACTION_OF_KIND[device.kind] !== body.action) throw business(msg['devices.wrongAction'], { device: device.name }, (lang) => [{ field: 'action', message: t(lang, msg['devices.wrongAction'], { device: device.name }) }]);
      const params = checkParams(body.action, body.params, req.lang);
      if (!(await service.commands.isOnline(device.id))) throw business(msg['devices.offline'], { device: device.name });
      if (!service.hub.connected) throw business(msg['devices.brokerDown']);
      const row = await service.commands.send(device, body.action, params, { userId: me.id, source: 'user' }, (tx, commandId) =>
        audit(tx, req, { action: `devices.command.${body.action}`, resource: 'devices', recordId: device.id, changes: { commandId, device: device.code, menu: body.menu, params } }),
      );
      return ok(commandView(row, req.lang, cfg.commandTimeoutMs));
    },
  );

  app.get(
    '/devices/commands/detail',
    { schema: { tags, summary: 'One command and its outcome (pending, acknowledged, failed, timedOut, superseded) with the sentence to show', querystring: { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } } },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const p = new Params();
      const { rows } = await db.query<CommandRow>(
        `SELECT c.*, d.name AS device_name FROM device_commands c JOIN devices d ON d.id = c.device_id WHERE c.id = ${p.add(req.query.id)} AND ${farmScope(me, p, 'c.farm_id', 'read')}`,
        p.values,
      );
      if (!rows[0]) throw notFound();
      return ok(commandView(rows[0], req.lang, cfg.commandTimeoutMs));
    },
  );

  app.get(
    '/devices/commands/page',
    {
      schema: {
        tags,
        summary: 'Commands of the caller’s farms, newest first (who, what, outcome)',
        querystring: { type: 'object', additionalProperties: false, properties: { deviceId: id, scenarioId: id, pageIndex: { type: 'integer', minimum: 1, maximum: 100000, default: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20 } } },
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const p = new Params();
      const conds = [farmScope(me, p, 'c.farm_id', 'read')];
      if (req.query.deviceId) conds.push(`c.device_id = ${p.add(req.query.deviceId)}`);
      if (req.query.scenarioId) conds.push(`c.scenario_id = ${p.add(req.query.scenarioId)}`);
      const where = conds.join(' AND ');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_commands c WHERE ${where}`, p.values)).rows[0].n;
      const { rows } = await db.query<CommandRow & { username: string | null }>(
        `SELECT c.*, d.name AS device_name, u.name AS username FROM device_commands c JOIN devices d ON d.id = c.device_id LEFT JOIN users u ON u.id = c.requested_by
          WHERE ${where} ORDER BY c.id DESC LIMIT ${req.query.pageSize} OFFSET ${(req.query.pageIndex - 1) * req.query.pageSize}`,
        p.values,
      );
      return ok({ rows: rows.map((r) => ({ ...commandView(r, req.lang, cfg.commandTimeoutMs), requestedBy: r.username })), total, pageIndex: req.query.pageIndex, pageSize: req.query.pageSize });
    },
  );

  app.get(
    '/devices/readings/series',
    {
      schema: {
        tags,
        summary: 'Readings of one kind over any range, in time buckets (avg, min, max, count per bucket), one series per farm and place for comparison (places: names, or farmId:name)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'from', 'to'],
          properties: {
            kind: { type: 'string', enum: [...READING_KINDS] },
            places: { type: 'string', maxLength: 500 },
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
            bucket: { type: 'string', enum: ['auto', ...BUCKETS], default: 'auto' },
          },
        },
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const from = new Date(req.query.from);
      const to = new Date(req.query.to);
      if (!(to > from)) throw invalidInput([{ field: 'to', message: t(req.lang, msg['devices.rangeOrder']) }], req.lang);
      const bucket: Bucket = req.query.bucket === 'auto' || !req.query.bucket ? autoBucket(from, to) : (req.query.bucket as Bucket);
      if (pointsOf(from, to, bucket) > MAX_POINTS) throw invalidInput([{ field: 'bucket', message: t(req.lang, msg['devices.rangeTooLong'], { max: MAX_POINTS, bucket }) }], req.lang);
      return ok(await readingSeries(db, me, { kind: req.query.kind as ReadingKind, places: parsePlaces(req.query.places), from, to, bucket }));
    },
  );

  app.get(
    '/devices/weather',
    { schema: { tags, summary: 'The farm’s own weather stations (latest readings) and the forecast provider’s answer (none configured by default, said clearly)' } },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const overview = await unitsOverview(db, me, cfg.deviceOfflineAfterS, ['sensor']);
      const stations = overview.units.filter((u) => u.placeType === 'facility' || /气象/.test(u.unit));
      return ok({ stations, forecast: await service.forecast.forecast(me.orgId, req.lang) });
    },
  );

  registerScenarioRoutes(plain, service);
  registerAlarmRoutes(plain, service);
  registerBuildRoutes(plain, service);
  registerFieldTrendRoutes(plain);
  registerHomeDeviceRoutes(plain);
  registerRawExportRoute(plain, DEVICE_MENUS);
  registerEventStream(plain, service);
}

export async function deviceInScope(db: FastifyInstance['db'], me: SessionUser, deviceId: number): Promise<KnownDevice | null> {
  const p = new Params();
  const { rows } = await db.query<{ id: number; farm_id: number; code: string; name: string; kind: string; place: string; unit: string }>(
    `SELECT id, farm_id, code, name, kind, place, unit FROM devices WHERE id = ${p.add(deviceId)} AND ${farmScope(me, p, 'farm_id')}`,
    p.values,
  );
  const r = rows[0];
  return r ? { id: r.id, farmId: Number(r.farm_id), code: r.code, name: r.name, kind: r.kind, place: r.place, unit: r.unit || r.place } : null;
}

const AC_MODES = ['cool', 'heat', 'dry', 'fan', 'auto'];
const FAN = ['auto', 'low', 'medium', 'high'];

/** The action's parameters, checked and reduced to what the device is told; 40001 on the field otherwise. */
export function checkParams(action: Action, params: Record<string, unknown>, lang: FastifyRequest['lang']): Record<string, unknown> {
  const errors: FieldError[] = [];
  const bad = (field: string, expected: string) => errors.push({ field: `params.${field}`, message: t(lang, msg['devices.badParam'], { expected }) });
  const bool = (k: string) => {
    if (typeof params[k] !== 'boolean') bad(k, 'true | false');
    return params[k] === true;
  };
  const num = (k: string, min: number, max: number, optional = false) => {
    const v = params[k];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) bad(k, `${min}–${max}`);
    return v as number;
  };
  let out: Record<string, unknown> = {};
  const runFor = (on: boolean) => {
    // Run for a while (docs/devices.md): a whole number of seconds, 10 s – 24 h, on an «on» only.
    const v = params.runForS;
    if (v === undefined) return undefined;
    const say = (key: string) => errors.push({ field: 'params.runForS', message: t(lang, msg[key as keyof typeof msg], { min: RUN_FOR_MIN_S, max: RUN_FOR_MAX_S / 3600 }) });
    if (!on) say('devices.runForOnlyOn');
    else if (typeof v !== 'number' || !Number.isInteger(v) || v < RUN_FOR_MIN_S || v > RUN_FOR_MAX_S) say('devices.runForRange');
    return v as number;
  };
  switch (action) {
    case 'switch': {
      const on = bool('on');
      const runForS = runFor(on);
      out = { on, ...(runForS !== undefined ? { runForS } : {}) };
      break;
    }
    case 'valve': {
      const open = bool('open');
      const minutes = open ? num('minutes', 1, 720, true) : undefined;
      out = { open, ...(minutes !== undefined ? { minutes } : {}) };
      break;
    }
    case 'airConditioner': {
      const power = bool('power');
      if (params.mode !== undefined && !AC_MODES.includes(String(params.mode))) bad('mode', AC_MODES.join(' | '));
      if (params.fan !== undefined && !FAN.includes(String(params.fan))) bad('fan', FAN.join(' | '));
      const setPoint = num('setPoint', 16, 32, true);
      out = { power, ...(params.mode ? { mode: params.mode } : {}), ...(params.fan ? { fan: params.fan } : {}), ...(setPoint !== undefined ? { setPoint } : {}) };
      break;
    }
    case 'fertigation': {
      const run = bool('run');
      if (run) {
        const r = params.recipe as Record<string, unknown> | undefined;
        if (!r || typeof r !== 'object') bad('recipe', '{name, ec, ph, minutes}');
        else {
          const name = typeof r.name === 'string' && r.name.length >= 1 && r.name.length <= 40 && !/[<>]/.test(r.name) ? r.name : (bad('recipe.name', '1–40'), '');
          const ec = typeof r.ec === 'number' && r.ec >= 0.2 && r.ec <= 5 ? r.ec : (bad('recipe.ec', '0.2–5'), 0);
          const ph = typeof r.ph === 'number' && r.ph >= 4 && r.ph <= 8.5 ? r.ph : (bad('recipe.ph', '4–8.5'), 0);
          const minutes = Number.isInteger(r.minutes) && (r.minutes as number) >= 1 && (r.minutes as number) <= 240 ? r.minutes : (bad('recipe.minutes', '1–240'), 0);
          out = { run, recipe: { name, ec, ph, minutes } };
        }
      } else out = { run };
      break;
    }
  }
  for (const k of Object.keys(params)) {
    if (k === 'runForS' && action !== 'switch') {
      errors.push({ field: 'params.runForS', message: t(lang, msg['devices.runForKinds']) });
      continue;
    }
    const allowed = { switch: ['on', 'runForS'], valve: ['open', 'minutes'], airConditioner: ['power', 'mode', 'setPoint', 'fan'], fertigation: ['run', 'recipe'] }[action];
    if (!allowed.includes(k)) bad(k, allowed.join(', '));
  }
  if (errors.length) throw invalidInput(errors, lang);
  return out;
}

