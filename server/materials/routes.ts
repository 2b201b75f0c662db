/**
 * HTTP of the stock ledger (docs/materials.md): stock, movements, stock-in, stock-out,
 * reversal and the ledger of one material in one store, under /api/farmMaterials. Every
 * route checks the caller's codes itself; writes run in one transaction each.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { can } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okObject, okPage, okArray } from '../admin/schemas.ts';
import { Params } from '../db/params.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { farmScope, MaterialsLedger, type MovementInput } from './ledger.ts';
import { ledgerPage, movementPage, movementWithLines, stockPage } from './reads.ts';
import { HANDOVER_TRANSITIONS, HandOverRequests, type HandOverState } from './handover-requests.ts';
import './messages.ts';

const tags = ['materials'];
/** The stores screens: /farmMaterialsManage/farmMaterialsStore and /farmStorehouse/index. */
export const STORE_MENUS = ['farmMaterialsStore', 'farmStorehouseIndex'];
/** The ledger of one material is also opened from the catalogue. */
const LEDGER_MENUS = [...STORE_MENUS, 'farmMaterialsList'];
const elements = (action: string) => STORE_MENUS.map((m) => `${m}:${action}`);

/**
 * The caller holding one of the store menus together with its own element code for
 * `action` (as the resource engine pairs an authority with its elements), else 40301.
 */
function requireStoreAction(req: FastifyRequest, action: string): SessionUser {
  const me = requireCan(req, { menus: STORE_MENUS });
  if (!STORE_MENUS.some((menu) => can(me, menu, action))) throw forbidden();
  return me;
}

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^<>]*$' }) as const;
const paging = {
  pageIndex: { type: 'integer', minimum: 1, maximum: 100000 },
  pageSize: { type: 'integer', minimum: 1, maximum: 500 },
} as const;

const line = (direction: 'in' | 'out') => ({
  type: 'object',
  additionalProperties: false,
  required: ['materialId', 'quantity'],
  properties: {
    materialId: id,
    batch: { type: 'string', maxLength: 32, pattern: '^[^<>]*$' },
    quantity: { type: 'number', exclusiveMinimum: 0, maximum: 100000000 },
    // A stock-out's price is the batch's average cost and its dates the batch's: never typed.
    ...(direction === 'in' ? { unitPrice: { type: 'number', minimum: 0, maximum: 10000000 }, producedOn: date, expiresOn: date } : {}),
  },
}) as const;

const movementBody = (direction: 'in' | 'out') => ({
  type: 'object',
  additionalProperties: false,
  required: ['storeId', 'movedOn', 'lines'],
  properties: {
    storeId: id,
    movedOn: date,
    ...(direction === 'in' ? { supplierId: id } : { groupId: id, taskId: id }),
    purpose: text(64),
    reference: text(64),
    note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
    lines: { type: 'array', minItems: 1, maxItems: 100, items: line(direction) },
  },
}) as const;

const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } as const;

export const materialsRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);
  const ledger = new MaterialsLedger();
  registerWrites(app, ledger);
  registerReads(app, ledger);
  registerOptions(app);
};

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function registerWrites(app: TypedApp, ledger: MaterialsLedger) {
  const handOvers = new HandOverRequests(ledger);
  for (const direction of ['in', 'out'] as const) {
    const path = direction === 'in' ? '/farmMaterials/movements/stockIn' : '/farmMaterials/movements/stockOut';
    app.post(
      path,
      {
        validatorCompiler: resourceValidatorCompiler,
        attachValidation: true,
        schema: {
          tags,
          summary:
            direction === 'in'
              ? 'Post a stock-in with lines (material, batch, quantity, unit price, production and expiry dates) into a store of the caller’s farm; confirmed at once'
              : 'Post a stock-out with lines from a store of the caller’s farm, optionally to a planting group or one of its tasks; refused, with how much is left, when a line would take a balance below zero',
          description: `Needs one of ${elements('add').join(', ')}. Store, materials, supplier, group and task must be the store’s farm’s (anything else answers 40001 on its field, as missing). Amounts are exact decimals (strings in replies).`,
          body: movementBody(direction),
          response: okObject(),
        },
      },
      async (req) => {
        const me = requireStoreAction(req, 'add');
        if (req.validationError) throw refuseValidation(req.validationError, req.lang);
        // One route per direction from one schema builder, so the body's static type is the
        // union of both shapes; the validated body is the direction's MovementInput.
        const body = req.body as MovementInput;
        const movementId = await app.db.transaction((tx) => (direction === 'in' ? ledger.stockIn(tx, req, me, body) : ledger.stockOut(tx, req, me, body)));
        return ok(await movementWithLines(app.db, me, movementId));
      },
    );
  }

  app.post(
    '/farmMaterials/movements/handOver',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Ask another farm of the caller’s group to accept materials into one of its stores: a request, nothing moves until that farm accepts (POST /farmMaterials/handOvers/:id/transitions/accept)',
        description: `Needs one of ${elements('add').join(', ')}. The lines are checked as a stock-out of the caller’s store; toStoreId is a store of another farm of the same group. On acceptance a stock-out here and a stock-in there are posted in one transaction (both or neither); each material must exist there with the same goods code. The goods keep batch, dates and cost.`,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['storeId', 'toStoreId', 'movedOn', 'lines'],
          properties: {
            storeId: id,
            toStoreId: id,
            movedOn: date,
            reference: text(64),
            note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
            lines: { type: 'array', minItems: 1, maxItems: 100, items: line('out') },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireStoreAction(req, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const body = req.body as MovementInput & { toStoreId: number };
      const requestId = await app.db.transaction((tx) => handOvers.request(tx, req, me, body));
      return ok(await handOverView(me, requestId));
    },
  );

  app.get(
    '/farmMaterials/handOvers/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Hand-over requests the caller’s farm gives (side=mine) or is asked to accept (side=toMe), newest first, with the two movements once accepted',
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['side'],
          properties: { ...paging, side: { type: 'string', enum: ['mine', 'toMe'] }, status: { type: 'string', enum: ['requested', 'accepted', 'declined', 'cancelled'] } },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: STORE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query as { side: 'mine' | 'toMe'; status?: HandOverState; pageIndex?: number; pageSize?: number };
      return ok(await handOvers.page(app.db, me, { side: q.side, status: q.status, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );

  app.post(
    '/farmMaterials/handOvers/:id/transitions/:name',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Settle a hand-over request: accept (the receiving farm: the stock-out at the giving farm and the stock-in here, one transaction), decline (the receiving farm) or cancel (the giving farm)',
        description: `Needs one of ${elements('add').join(', ')} and the write scope of the side’s farm (40301 otherwise); a request the caller’s farms neither give nor receive answers 40401; a settled one 40001.`,
        params: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'name'],
          properties: { id, name: { type: 'string', enum: Object.keys(HANDOVER_TRANSITIONS) } },
        },
        body: { type: 'object', additionalProperties: false, properties: { version: { type: 'integer', minimum: 1, maximum: 2147483647 }, reason: { type: 'string', maxLength: 200, pattern: '^[^<>]*$' }, movedOn: date } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireStoreAction(req, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const { id: requestId, name } = req.params as { id: number; name: string };
      await app.db.transaction((tx) => handOvers.move(tx, req, me, name, requestId, (req.body ?? {}) as { version?: number; reason?: string; movedOn?: string }));
      return ok(await handOverView(me, requestId));
    },
  );

  /** One request as the pages show it, to the caller who just wrote it. */
  async function handOverView(me: SessionUser, requestId: number) {
    for (const side of ['mine', 'toMe'] as const) {
      const page = await handOvers.page(app.db, { ...me, platformAdmin: true }, { side, pageIndex: 1, pageSize: 1, only: requestId });
      if (page.rows[0]) return page.rows[0];
    }
    throw notFound();
  }

  app.post(
    '/farmMaterials/movements/:id/reverse',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Reverse a confirmed movement: a new movement of the same lines the other way, naming the one it reverses (once only; a reversal is not reversed)',
        description: `Needs one of ${elements('edit').join(', ')}. Another farm’s movement answers 40401. Reversing a stock-in whose goods were used is refused like any stock-out.`,
        params: idParams,
        body: { type: 'object', additionalProperties: false, properties: { note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' } } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireStoreAction(req, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const movementId = await app.db.transaction((tx) => ledger.reverse(tx, req, me, req.params.id, req.body?.note));
      return ok(await movementWithLines(app.db, me, movementId));
    },
  );

  // A confirmed movement is never edited nor deleted: these answer why, with the way out.
  const refuseChange = async (req: FastifyRequest<{ Params: { id: number } }>, action: string) => {
    const me = requireStoreAction(req, action);
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    if (!(await movementWithLines(app.db, me, req.params.id))) throw notFound();
    throw invalidInput([{ field: 'id', message: t(req.lang, 'materials.confirmedImmutable') }], req.lang);
  };
  const immutable = (summary: string) => ({
    validatorCompiler: resourceValidatorCompiler,
    attachValidation: true,
    schema: { tags, summary, description: 'Always 40001 for a movement of the caller’s farm (40401 otherwise): a confirmed movement is corrected by a reversal.', params: idParams, response: okObject() },
  });
  app.put('/farmMaterials/movements/:id', immutable('Editing a confirmed movement is refused'), (req) => refuseChange(req, 'edit'));
  app.delete('/farmMaterials/movements/:id', immutable('Deleting a confirmed movement is refused'), (req) => refuseChange(req, 'delete'));
}

function registerReads(app: TypedApp, ledger: MaterialsLedger) {
  app.get(
    '/farmMaterials/stock/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Stock per store and material: quantity, value, batches, nearest expiry, below safety stock (safety = low) and expiry (expired, near = within 30 days, ok, none)',
        description: `Needs one of the menu codes ${STORE_MENUS.join(', ')}. state=low or state=nearExpiry keeps those rows.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...paging,
            storeId: id,
            materialId: id,
            category: { type: 'string', maxLength: 16 },
            keyword: { type: 'string', maxLength: 64 },
            state: { type: 'string', enum: ['', 'low', 'nearExpiry'] },
          },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: STORE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(
        await stockPage(
          app.db,
          me,
          {
            storeId: q.storeId,
            materialId: q.materialId,
            category: q.category || undefined,
            keyword: q.keyword || undefined,
            state: q.state || undefined,
            pageIndex: q.pageIndex ?? 1,
            pageSize: q.pageSize ?? 20,
          },
          today(),
        ),
      );
    },
  );

  app.get(
    '/farmMaterials/movements/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Stock movements of the caller’s farm, newest first: number, direction, store, date, supplier or group, total amount, reversal links',
        description: `Needs one of the menu codes ${STORE_MENUS.join(', ')}.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...paging, direction: { type: 'string', enum: ['', 'in', 'out'] }, storeId: id, movedOnFrom: date, movedOnTo: date },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: STORE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(
        await movementPage(app.db, me, {
          direction: q.direction || undefined,
          storeId: q.storeId,
          movedOnFrom: q.movedOnFrom || undefined,
          movedOnTo: q.movedOnTo || undefined,
          pageIndex: q.pageIndex ?? 1,
          pageSize: q.pageSize ?? 20,
        }),
      );
    },
  );

  app.get(
    '/farmMaterials/movements/:id',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: { tags, summary: 'One movement with its lines', description: `Needs one of the menu codes ${STORE_MENUS.join(', ')}. Another farm’s movement answers 40401.`, params: idParams, response: okObject() },
    },
    async (req) => {
      const me = requireCan(req, { menus: STORE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const movement = await movementWithLines(app.db, me, req.params.id, 'read');
      if (!movement) throw notFound();
      return ok(movement);
    },
  );

  app.get(
    '/farmMaterials/ledger/page',
    {
      validatorCompiler: resourceValidatorCompiler,
      attachValidation: true,
      schema: {
        tags,
        summary: 'The ledger of one material (by id or goods code) in one store: every line, newest first, with the balance after it',
        description: `Needs one of the menu codes ${LEDGER_MENUS.join(', ')}. A store or material outside the caller’s farm answers 40401.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['storeId'],
          properties: { ...paging, storeId: id, materialId: id, goodsCode: { type: 'string', minLength: 1, maxLength: 32 } },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: LEDGER_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      const store = await ledger.storeInScope(app.db, me, q.storeId);
      if (!store) throw notFound();
      const material = await materialOfFarm(app, store.farmId, q.materialId, q.goodsCode);
      if (material === null) throw notFound();
      return ok(await ledgerPage(app.db, store.id, material, q.pageIndex ?? 1, q.pageSize ?? 20));
    },
  );
}

async function materialOfFarm(app: TypedApp, farmId: number, materialId?: number, goodsCode?: string): Promise<number | null> {
  if (materialId === undefined && goodsCode === undefined) return null;
  const p = new Params();
  const where = [`resource = 'farmMaterials'`, `farm_id = ${p.add(farmId)}`];
  if (materialId !== undefined) where.push(`id = ${p.add(materialId)}`);
  if (goodsCode !== undefined) where.push(`data->>'goodsCode' = ${p.add(goodsCode)}`);
  const { rows } = await app.db.query<{ id: number }>(`SELECT id FROM resource_records WHERE ${where.join(' AND ')} LIMIT 1`, p.values);
  return rows[0] ? Number(rows[0].id) : null;
}

/** Options for the movement forms, in the caller's farm scope and the store screens' codes. */
function registerOptions(app: TypedApp) {
  const options = (path: string, summary: string, sql: (scope: string) => string, label: (r: Record<string, unknown>) => string, menus = STORE_MENUS) =>
    app.get(path, { schema: { tags, summary, description: `Needs one of the menu codes ${menus.join(', ')}.`, response: okArray() } }, async (req) => {
      const me: SessionUser = requireCan(req, { menus });
      const p = new Params();
      const { rows } = await app.db.query<Record<string, unknown>>(sql(farmScope(me, p, 'r.farm_id')), p.values);
      return ok(rows.map((r) => ({ value: Number(r.id), label: label(r) })));
    });
  options(
    '/farmMaterials/options/materials',
    'Materials of the caller’s farm as options: “name · goods code (unit)”',
    (scope) => `SELECT r.id, r.data FROM resource_records r WHERE r.resource = 'farmMaterials' AND ${scope} ORDER BY r.data->>'name', r.id LIMIT 1000`,
    (r) => {
      const d = r.data as Record<string, string>;
      return `${d.name} · ${d.goodsCode ?? ''}（${d.unit}）`;
    },
    // The purchase order form and the farming record form (the materials used on a task) pick materials too.
    [...STORE_MENUS, 'farmMaterialsBuy', 'farmPlantGroupList', 'plantManagementFarmPlantGroup', 'plantingPlan', 'productionManagementIndex'],
  );
  options(
    '/farmMaterials/options/groupStores',
    'Stores of the other farms of the caller’s group, as options for a hand-over: “farm · store”',
    (scope) => `SELECT r.id, r.data, o.name AS farm_name FROM resource_records r JOIN organisations o ON o.id = r.farm_id
                 WHERE r.resource = 'farmStores' AND NOT (${scope}) AND o.bloc_id IS NOT NULL
                   AND o.bloc_id IN (SELECT me.bloc_id FROM organisations me JOIN resource_records s ON s.farm_id = me.id WHERE s.resource = 'farmStores' AND ${scope.replaceAll('r.farm_id', 's.farm_id')})
                 ORDER BY o.name, r.id LIMIT 500`,
    (r) => `${r.farm_name} · ${(r.data as Record<string, string>).name}`,
  );
  options(
    '/farmMaterials/options/plantGroups',
    'Planting groups of the caller’s farm that are not closed, as options',
    (scope) => `SELECT r.id, r.data FROM resource_records r WHERE r.resource = 'plantGroups' AND ${scope} AND coalesce(r.data->>'status', '') <> 'closed' ORDER BY r.data->>'plantedOn' DESC, r.id LIMIT 500`,
    (r) => String((r.data as Record<string, string>).name),
  );
  options(
    '/farmMaterials/options/farmingTasks',
    'Open farming tasks of the caller’s farm as options: “group · task”',
    (scope) => `SELECT r.id, r.data, g.data->>'name' AS group_name FROM resource_records r LEFT JOIN resource_records g ON g.resource = 'plantGroups' AND g.id = (r.data->>'groupId')::bigint
                 WHERE r.resource = 'farmingTasks' AND ${scope} AND coalesce(r.data->>'status', '') <> 'done' ORDER BY r.data->>'startOn', r.id LIMIT 500`,
    (r) => `${r.group_name ?? ''} · ${(r.data as Record<string, string>).title}`,
  );
}
