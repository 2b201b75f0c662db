/**
 * Scenarios and alarms under /api/devices (docs/devices.md, "Scenarios"): list, create,
 * change, enable or disable, delete (the alarms: alarm-routes.ts). Needs `scenarioAdd` and its element
 * codes (add, edit, delete). A scenario's device must be of the scenario's farm (the
 * caller's), and its command parameters are checked as a console's command would be.
 */
import type { FastifyInstance } from 'fastify';
import { typedRoutes } from '../http/typed-routes.ts';
import { ApiError, forbidden, notFound, ok } from '../http/envelope.ts';
import { requireCan } from '../http/guard.ts';
import { audit } from '../audit/log.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { Params } from '../db/params.ts';
import { farmScope } from '../materials/ledger.ts';
import { ACTION_OF_KIND, ACTIONS, type Action } from './commands.ts';
import { checkParams, DEVICE_MENUS, deviceInScope } from './routes.ts';
import type { DeviceService } from './service.ts';
import { READING_KINDS } from './topics.ts';
import { msg } from './messages.ts';
import { DEFAULT_MIN_INTERVAL_S, type ThresholdCondition } from './scenarios.ts';
import { referable } from '../resources/references.ts';
import { DEVICES } from './references.ts';

const tags = ['devices'];
const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const hhmm = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } as const;

const actionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['deviceId', 'action', 'params'],
  properties: { deviceId: id, action: { type: 'string', enum: [...ACTIONS] }, params: { type: 'object' } },
} as const;

/** One condition of a rule of several (trigger.conditions). */
const conditionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['place', 'kind', 'op', 'value'],
  properties: {
    place: { type: 'string', minLength: 1, maxLength: 60 },
    kind: { type: 'string', enum: [...READING_KINDS] },
    op: { type: 'string', enum: ['above', 'below'] },
    value: { type: 'number', minimum: -100000, maximum: 1000000 },
    deadband: { type: 'number', minimum: 0, maximum: 100000 },
  },
} as const;

const scenarioBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'trigger'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 60, pattern: '^[^<>]*$' },
    enabled: { type: 'boolean' },
    trigger: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['threshold', 'schedule'] },
        place: { type: 'string', minLength: 1, maxLength: 60 },
        kind: { type: 'string', enum: [...READING_KINDS] },
        op: { type: 'string', enum: ['above', 'below'] },
        value: { type: 'number', minimum: -100000, maximum: 1000000 },
        deadband: { type: 'number', minimum: 0, maximum: 100000 },
        minIntervalS: { type: 'integer', minimum: 0, maximum: 86400 },
        // Several conditions instead of place, kind, op, value and deadband: all or any of them.
        conditions: { type: 'array', minItems: 1, maxItems: 8, items: conditionSchema },
        match: { type: 'string', enum: ['all', 'any'] },
        at: hhmm,
      },
    },
    windowFrom: hhmm,
    windowTo: hhmm,
    alarm: { type: 'boolean' },
    action: actionSchema,
    // What to do when the value comes back (threshold rules): the fan off again.
    backAction: actionSchema,
  },
} as const;

interface ScenarioBody {
  name: string;
  enabled?: boolean;
  trigger: {
    type: 'threshold' | 'schedule'; place?: string; kind?: string; op?: 'above' | 'below'; value?: number; deadband?: number; minIntervalS?: number; at?: string;
    conditions?: ThresholdCondition[]; match?: 'all' | 'any';
  };
  windowFrom?: string;
  windowTo?: string;
  alarm?: boolean;
  action?: { deviceId: number; action: Action; params: Record<string, unknown> };
  backAction?: { deviceId: number; action: Action; params: Record<string, unknown> };
}

const VIEW = `SELECT s.id, s.farm_id, s.name, s.enabled, s.trigger, to_char(s.window_from, 'HH24:MI') AS "windowFrom", to_char(s.window_to, 'HH24:MI') AS "windowTo",
    s.action, s.back_action AS "backAction", s.alarm, s.armed, s.last_fired_at AS "lastFiredAt", s.runs, d.name AS "deviceName"
  FROM device_scenarios s LEFT JOIN devices d ON d.id = (s.action->>'deviceId')::int`;

export function registerScenarioRoutes(plain: FastifyInstance, service: DeviceService): void {
  const app = typedRoutes(plain);
  const { db } = plain;

  const requireScenario = (req: Parameters<typeof requireCan>[0], action?: string) => {
    const me = requireCan(req, 'scenarioAdd', action);
    if (me.orgId == null && action) throw forbidden();
    return me;
  };

  async function checked(req: Parameters<typeof requireCan>[0] & { lang: 'zh' | 'en' | 'es' }, me: { orgId: number | null }, body: ScenarioBody) {
    const errors: { field: string; message: string }[] = [];
    const required = (field: string) => errors.push({ field, message: t(req.lang, msg['devices.badParam'], { expected: field }) });
    const several = body.trigger.conditions !== undefined;
    if (body.trigger.type === 'threshold' && several) {
      // Several conditions: the single condition's properties are not given as well.
      for (const k of ['place', 'kind', 'op', 'value', 'deadband'] as const) {
        if (body.trigger[k] !== undefined) errors.push({ field: `trigger.${k}`, message: t(req.lang, msg['devices.conditionsOrSingle']) });
      }
    } else if (body.trigger.type === 'threshold') {
      for (const k of ['place', 'kind', 'op', 'value'] as const) if (body.trigger[k] === undefined) required(`trigger.${k}`);
      if (body.trigger.match !== undefined) errors.push({ field: 'trigger.match', message: t(req.lang, msg['devices.matchNeedsConditions']) });
    } else {
      if (!body.trigger.at) required('trigger.at');
      if (several) errors.push({ field: 'trigger.conditions', message: t(req.lang, msg['devices.badParam'], { expected: 'trigger.type = threshold' }) });
      if (body.trigger.match !== undefined) errors.push({ field: 'trigger.match', message: t(req.lang, msg['devices.matchNeedsConditions']) });
    }
    const checkAction = async (field: 'action' | 'backAction', a: NonNullable<ScenarioBody['action']>) => {
      // The engine's reference rule: a device of the scenario's own farm, else as missing.
      const own = await referable(db, DEVICES, { farmId: me.orgId, blocId: null }, [a.deviceId], false);
      const device = own.size ? await deviceInScope(db, req.user as never, a.deviceId) : null;
      if (!device) errors.push({ field: `${field}.deviceId`, message: t(req.lang, msg['devices.deviceMissing']) });
      else if (ACTION_OF_KIND[device.kind] !== a.action) errors.push({ field: `${field}.action`, message: t(req.lang, msg['devices.wrongAction'], { device: device.name }) });
      else {
        try {
          return checkParams(a.action, a.params, req.lang);
        } catch (e) {
          // The parameters' refusals, named under the action they belong to (`action.params.runForS`).
          const details = e instanceof ApiError && Array.isArray(e.details) ? e.details : null;
          if (!details) throw e;
          for (const d of details) errors.push({ field: `${field}.${d.field}`, message: d.message });
        }
      }
      return null;
    };
    const params = body.action ? await checkAction('action', body.action) : null;
    const backParams = body.backAction ? await checkAction('backAction', body.backAction) : null;
    if (body.backAction && body.trigger.type !== 'threshold') errors.push({ field: 'backAction', message: t(req.lang, msg['devices.badParam'], { expected: 'trigger.type = threshold' }) });
    if (!body.action && !body.alarm) required('action');
    if (errors.length) throw invalidInput(errors, req.lang);
    const trigger = body.trigger.type === 'threshold' && several
      ? {
          type: 'threshold', match: body.trigger.match ?? 'all',
          conditions: (body.trigger.conditions ?? []).map((c) => ({ place: c.place, kind: c.kind, op: c.op, value: c.value, deadband: c.deadband ?? 0 })),
          minIntervalS: body.trigger.minIntervalS ?? DEFAULT_MIN_INTERVAL_S,
        }
      : body.trigger.type === 'threshold'
      ? {
          type: 'threshold', place: body.trigger.place, kind: body.trigger.kind, op: body.trigger.op, value: body.trigger.value,
          deadband: body.trigger.deadband ?? 0, minIntervalS: body.trigger.minIntervalS ?? DEFAULT_MIN_INTERVAL_S,
        }
      : { type: 'schedule', at: body.trigger.at };
    return { trigger, action: body.action ? { ...body.action, params } : null, backAction: body.backAction ? { ...body.backAction, params: backParams } : null };
  }

  app.get(
    '/devices/scenarios/page',
    { schema: { tags, summary: 'Scenarios of the caller’s farms: trigger, window, action, enabled, last run and runs', querystring: { type: 'object', additionalProperties: false, properties: { pageIndex: { type: 'integer', minimum: 1, maximum: 100000, default: 1 }, pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 50 } } } } },
    async (req) => {
      const me = requireCan(req, { menus: DEVICE_MENUS });
      const p = new Params();
      const where = farmScope(me, p, 's.farm_id', 'read');
      const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_scenarios s WHERE ${where}`, p.values)).rows[0].n;
      const { rows } = await db.query(`${VIEW} WHERE ${where} ORDER BY s.id DESC LIMIT ${req.query.pageSize} OFFSET ${(req.query.pageIndex - 1) * req.query.pageSize}`, p.values);
      return ok({ rows, total, pageIndex: req.query.pageIndex, pageSize: req.query.pageSize });
    },
  );

  app.post(
    '/devices/scenarios',
    { validatorCompiler: resourceValidatorCompiler, attachValidation: true, schema: { tags, summary: 'Create a scenario (needs scenarioAdd:add)', body: scenarioBody } },
    async (req) => {
      const me = requireScenario(req, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as ScenarioBody;
      const { trigger, action, backAction } = await checked(req, me, body);
      const row = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO device_scenarios(farm_id, name, enabled, trigger, window_from, window_to, action, alarm, back_action) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
          [me.orgId, body.name, body.enabled ?? true, JSON.stringify(trigger), body.windowFrom ?? '00:00', body.windowTo ?? '23:59:59', action ? JSON.stringify(action) : null, body.alarm ?? false, backAction ? JSON.stringify(backAction) : null],
        );
        await audit(tx, req, { action: 'devices.scenario.create', resource: 'deviceScenarios', recordId: rows[0].id, changes: { ...body } });
        return rows[0];
      });
      // The rules cached for evaluation are read again.
      service.scenarios.forget();
      return ok((await db.query(`${VIEW} WHERE s.id = $1`, [row.id])).rows[0]);
    },
  );

  app.put(
    '/devices/scenarios',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'Change a scenario named by `id` (needs scenarioAdd:edit); it is armed again', body: { ...scenarioBody, required: ['id', ...scenarioBody.required], properties: { id, ...scenarioBody.properties } } },
    },
    async (req) => {
      const me = requireScenario(req, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const { id: scenarioId, ...body } = req.body as ScenarioBody & { id: number };
      const params = { id: scenarioId };
      const { trigger, action, backAction } = await checked(req, me, body);
      const { rows } = await db.query<{ id: number }>(
        `UPDATE device_scenarios SET name = $3, enabled = $4, trigger = $5, window_from = $6, window_to = $7, action = $8, alarm = $9,
               -- A change that does not name the way-back action (the console's form) keeps it.
               back_action = CASE WHEN $11 THEN $10::jsonb ELSE back_action END, armed = true, condition_values = '{}'
          WHERE id = $1 AND farm_id = $2 RETURNING id`,
        [params.id, me.orgId, body.name, body.enabled ?? true, JSON.stringify(trigger), body.windowFrom ?? '00:00', body.windowTo ?? '23:59:59', action ? JSON.stringify(action) : null, body.alarm ?? false, backAction ? JSON.stringify(backAction) : null, 'backAction' in body],
      );
      if (!rows[0]) throw notFound(msg['devices.scenarioMissing']);
      await audit(db, req, { action: 'devices.scenario.update', resource: 'deviceScenarios', recordId: params.id, changes: { ...body } });
      // The rules cached for evaluation are read again.
      service.scenarios.forget();
      return ok((await db.query(`${VIEW} WHERE s.id = $1`, [params.id])).rows[0]);
    },
  );

  app.post(
    '/devices/scenarios/enabled',
    { schema: { tags, summary: 'Enable or disable a scenario (needs scenarioAdd:edit); enabling arms it again', body: { type: 'object', additionalProperties: false, required: ['id', 'enabled'], properties: { id, enabled: { type: 'boolean' } } } } },
    async (req) => {
      const me = requireScenario(req, 'edit');
      const { id: scenarioId, enabled } = req.body;
      const { rows } = await db.query<{ id: number }>(`UPDATE device_scenarios SET enabled = $3, armed = true WHERE id = $1 AND farm_id = $2 RETURNING id`, [scenarioId, me.orgId, enabled]);
      if (!rows[0]) throw notFound(msg['devices.scenarioMissing']);
      await audit(db, req, { action: `devices.scenario.${enabled ? 'enable' : 'disable'}`, resource: 'deviceScenarios', recordId: scenarioId });
      // The rules cached for evaluation are read again.
      service.scenarios.forget();
      return ok((await db.query(`${VIEW} WHERE s.id = $1`, [scenarioId])).rows[0]);
    },
  );

  app.delete(
    '/devices/scenarios',
    { schema: { tags, summary: 'Delete the scenario `id` (needs scenarioAdd:delete); its commands stay as history', querystring: { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } } },
    async (req) => {
      const me = requireScenario(req, 'delete');
      const { rows } = await db.query<{ id: number }>('DELETE FROM device_scenarios WHERE id = $1 AND farm_id = $2 RETURNING id', [req.query.id, me.orgId]);
      if (!rows[0]) throw notFound(msg['devices.scenarioMissing']);
      await audit(db, req, { action: 'devices.scenario.delete', resource: 'deviceScenarios', recordId: req.query.id });
      service.scenarios.forget();
      return ok(null);
    },
  );
}
