/**
 * HTTP of harvest, sales, fund accounting, trace codes and reviews (docs/harvest-sales-trace.md).
 * Every route checks the caller's menu and element codes itself; writes run in one
 * transaction each; reads are in the caller's farm scope.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { typedRoutes, type TypedApp } from '../http/typed-routes.ts';
import { forbidden, notFound, ok } from '../http/envelope.ts';
import { can } from '../../runtime/access/can.ts';
import { requireCan } from '../http/guard.ts';
import { t } from '../i18n/catalog.ts';
import { invalidInput, refuseValidation, resourceValidatorCompiler } from '../resources/validation.ts';
import { okArray, okObject, okPage } from '../admin/schemas.ts';
import type { SessionUser } from '../auth/session-user.ts';
import { answerReview, releaseHarvest, cancelSale, createEntry, createHarvest, createSale, deleteEntry, deleteHarvest, traceCodeFor, type EntryInput, type HarvestInput, type SaleInput } from './sales.ts';
import { accountReport, accountSummary, batchOptions, entryPage, groupOptions, harvestById, harvestPage, reviewPage, saleWithLines, salePage, traceCodePage } from './reads.ts';
import { EXPENSE_CATEGORIES, GRADES, INCOME_CATEGORIES } from './numbers.ts';
import './messages.ts';
import { csvDocument } from '../../runtime/format/csv.ts';
import { lotTrace, sortTraceRows, TRACE_SORT_FIELDS, type TraceEventRow } from './lot-trace.ts';
import { materialLotTrace, materialOfScope } from './material-lot.ts';
import { createRecall, recallById, recallContact, recallContacts, recallNumber, recallPage, recordProgress, sendRecallTexts, type ProgressInput } from './recalls.ts';
import { traceFile, traceFileName } from './trace-export.ts';
import { registerLabelSheets } from './label-sheet.ts';

const tags = ['harvest'];
export const HARVEST_MENUS = ['farmHarvestIndex'];
export const SALE_MENUS = ['sale', 'saleOld'];
export const ACCOUNT_MENUS = ['farmAccountingIndex', 'marketingFarmAccounting'];
export const TRACE_MENUS = ['trackInfoManageIndex'];
export const REVIEW_MENUS = ['commentSuggestionIndex'];
/** The quality screens link their records to batches and groups. */
export const QUALITY_MENUS = ['qualityandSafetyFarm', 'productionProcess', 'outputs'];

/** One of `menus` together with its own element code for `action`, else 40301. */
function requireAction(req: FastifyRequest, menus: string[], action: string): SessionUser {
  const me = requireCan(req, { menus });
  if (!menus.some((menu) => can(me, menu, action))) throw forbidden();
  return me;
}

const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
const date = { type: 'string', format: 'date', maxLength: 10 } as const;
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^<>]*$' }) as const;
const paging = { pageIndex: { type: 'integer', minimum: 1, maximum: 100000 }, pageSize: { type: 'integer', minimum: 1, maximum: 500 } } as const;
const idParams = { type: 'object', additionalProperties: false, required: ['id'], properties: { id } } as const;
const periodProps = { from: date, to: date } as const;

const harvestBody = {
  type: 'object',
  additionalProperties: false,
  required: ['groupId', 'harvestedOn', 'quantity', 'unit', 'grade'],
  properties: {
    groupId: id,
    harvestedOn: date,
    quantity: { type: 'number', exclusiveMinimum: 0, maximum: 100000000 },
    unit: text(16),
    grade: { type: 'string', enum: [...GRADES] },
    note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
    safetyOverrideReason: { type: 'string', minLength: 4, maxLength: 200, pattern: '^[^<>]*$' },
  },
} as const;

const saleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['customer', 'orderedOn', 'lines'],
  properties: {
    customer: text(64),
    customerPhone: { type: 'string', maxLength: 20, pattern: '^[0-9+() -]*$' },
    orderedOn: date,
    note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['harvestId', 'quantity', 'unitPrice'],
        properties: { harvestId: id, productId: id, quantity: { type: 'number', exclusiveMinimum: 0, maximum: 100000000 }, unitPrice: { type: 'number', minimum: 0, maximum: 10000000 } },
      },
    },
  },
} as const;

const entryBody = {
  type: 'object',
  additionalProperties: false,
  required: ['entryOn', 'direction', 'category', 'amount'],
  properties: {
    farmId: id,
    entryOn: date,
    direction: { type: 'string', enum: ['income', 'expense'] },
    category: { type: 'string', enum: [...INCOME_CATEGORIES, ...EXPENSE_CATEGORIES] },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000000 },
    crop: text(32),
    note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
  },
} as const;

const validated = { validatorCompiler: resourceValidatorCompiler, attachValidation: true } as const;

export const harvestRoutes: FastifyPluginAsync = async (plain) => {
  const app = typedRoutes(plain);
  registerHarvests(app);
  registerSales(app);
  registerAccounts(app);
  registerTrace(app);
  registerRecalls(app);
  registerLabelSheets(plain);
};

function registerHarvests(app: TypedApp) {
  app.get(
    '/farmHarvest/harvests/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Harvest batches of the caller’s farms, newest first: batch number, group, crop, plot, quantity, sold and left, grade, trace code, and the pesticide applications whose safety interval the harvest falls inside',
        description: `Needs one of ${[...HARVEST_MENUS, ...SALE_MENUS, ...TRACE_MENUS].join(', ')}.`,
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, keyword: { type: 'string', maxLength: 64 }, groupId: id, grade: { type: 'string', enum: ['', ...GRADES] }, ...periodProps, available: { type: 'boolean' } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: [...HARVEST_MENUS, ...SALE_MENUS, ...TRACE_MENUS] });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(await harvestPage(app.db, me, { ...q, grade: q.grade || undefined, keyword: q.keyword || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }, req.lang));
    },
  );
  app.get('/farmHarvest/harvests/:id', { ...validated, schema: { tags, summary: 'One harvest batch', description: `Needs one of ${HARVEST_MENUS.join(', ')}.`, params: idParams, response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: [...HARVEST_MENUS, ...TRACE_MENUS] });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const row = await harvestById(app.db, me, req.params.id, req.lang);
    if (!row) throw notFound();
    return ok(row);
  });
  const sortField = `-?(${TRACE_SORT_FIELDS.join('|')})`;
  app.get(
    '/farmHarvest/harvests/:id/lotTrace',
    {
      ...validated,
      schema: {
        tags,
        summary: 'One step back, one step forward for a harvest lot: one row per critical tracking event (inputs applied with their material lot and source, the harvest, every sale with its customer, what is on hand) with its key data elements (FSMA 204), sortable',
        description: `Needs one of ${[...HARVEST_MENUS, ...TRACE_MENUS].join(', ')}. sort: fields ${TRACE_SORT_FIELDS.join(', ')}, comma-separated, - for descending; default step,date.`,
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, sort: { type: 'string', maxLength: 120, pattern: `^(${sortField})(,${sortField}){0,4}$` } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: [...HARVEST_MENUS, ...TRACE_MENUS] });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const report = await lotTrace(app.db, me, req.params.id, new Date().toISOString().slice(0, 10));
      if (!report) throw notFound();
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 500;
      const rows = sortTraceRows(report.rows, req.query.sort);
      return ok({ rows: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: rows.length, pageIndex, pageSize });
    },
  );
  app.post(
    '/farmHarvest/harvests/:id/recall',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Recall a batch with a reason: its public page says so, its sales are refused, its customers are notified (notice and text message); the reply lists them, for contact, with the recall to record progress on',
        description: 'Needs farmHarvestIndex:recall. A batch is recalled once (40001 the second time).',
        params: idParams,
        body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^<>]*$' } } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, HARVEST_MENUS, 'recall');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const made = await app.db.transaction((tx) => createRecall(tx, req, me, { kind: 'batch', harvestId: req.params.id, reason: req.body.reason }));
      await sendRecallTexts(app.db, app.sms, made.texts);
      const batch = await harvestById(app.db, me, req.params.id, req.lang);
      const contacts = (await recallContacts(app.db, me, made.id, { pageIndex: 1, pageSize: 500 })).rows.map((c) => ({ customer: c.customer, phone: c.phone, quantity: c.sold, unit: c.unit, orders: c.orders, sms: c.sms }));
      return ok({ ...batch, recallId: made.id, recallNumber: recallNumber(made.id), contacts });
    },
  );
  app.post(
    '/farmHarvest/harvests/:id/release',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Release a batch held by a safety interval without a test: the reason and who are kept on the batch and in the operation log',
        description: 'Needs farmHarvestIndex:release. Only a held batch (harvested inside an interval, no passing residue test of it after its harvest) is released; anything else is 40001.',
        params: idParams,
        body: { type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^<>]*$' } } },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, HARVEST_MENUS, 'release');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      await app.db.transaction((tx) => releaseHarvest(tx, req, me, req.params.id, req.body.reason));
      return ok(await harvestById(app.db, me, req.params.id, req.lang));
    },
  );
  app.post(
    '/farmHarvest/harvests',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Record a harvest of a planting group: a batch with a generated number; the reply carries the safety-interval flags',
        description:
          'Needs farmHarvestIndex:add. The group must be of the caller’s scope. A harvest inside a pesticide’s safety interval is refused (40001 on harvestedOn, naming the input and the first safe day) unless safetyOverrideReason is given by a holder of farmHarvestIndex:safetyOverride (40301 otherwise); the override is kept on the batch and in the operation log.',
        body: harvestBody,
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, HARVEST_MENUS, 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const newId = await app.db.transaction((tx) => createHarvest(tx, req, me, req.body as HarvestInput));
      return ok(await harvestById(app.db, me, newId, req.lang));
    },
  );
  app.delete('/farmHarvest/harvests/:id', { ...validated, schema: { tags, summary: 'Delete a batch that has no sales and no trace code', description: 'Needs farmHarvestIndex:delete.', params: idParams, response: okObject() } }, async (req) => {
    const me = requireAction(req, HARVEST_MENUS, 'delete');
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    await app.db.transaction((tx) => deleteHarvest(tx, req, me, req.params.id));
    return ok({ id: req.params.id });
  });
  app.get('/farmHarvest/options/plantGroups', { schema: { tags, summary: 'Planting groups of the caller’s farms as options «group · crop»', response: okArray() } }, async (req) => {
    const me = requireCan(req, { menus: [...HARVEST_MENUS, ...QUALITY_MENUS] });
    return ok(await groupOptions(app.db, me));
  });
  app.get('/farmHarvest/options/batches', { schema: { tags, summary: 'Batches with something left to sell, as options «batch · crop · left unit»', response: okArray() } }, async (req) => {
    const me = requireCan(req, { menus: [...SALE_MENUS, ...TRACE_MENUS, ...HARVEST_MENUS, ...QUALITY_MENUS] });
    return ok(await batchOptions(app.db, me, req.lang));
  });
}

function registerSales(app: TypedApp) {
  app.get(
    '/marketing/sale/orders/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Sales orders of the caller’s farms, newest first, with their batches and totals (money as exact decimal strings)',
        description: `Needs one of ${SALE_MENUS.join(', ')}. archive=true: orders dated before this year (the old sales).`,
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, status: { type: 'string', enum: ['', 'confirmed', 'cancelled'] }, keyword: { type: 'string', maxLength: 64 }, ...periodProps, archive: { type: 'boolean' } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: SALE_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      const before = q.archive ? `${new Date().getUTCFullYear()}-01-01` : undefined;
      return ok(await salePage(app.db, me, { status: q.status || undefined, keyword: q.keyword || undefined, from: q.from, to: q.to, before, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );
  app.get('/marketing/sale/orders/:id', { ...validated, schema: { tags, summary: 'One sales order with its lines', description: `Needs one of ${SALE_MENUS.join(', ')}.`, params: idParams, response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: SALE_MENUS });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const order = await saleWithLines(app.db, me, req.params.id);
    if (!order) throw notFound();
    return ok(order);
  });
  app.post(
    '/marketing/sale/orders',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Post a sales order with lines drawn from harvest batches; refused on the line, with what is left, when a batch would be sold beyond what was harvested; posts the income',
        description: 'Needs sale:add. Every batch must be of one farm of the caller’s scope.',
        body: saleBody,
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, ['sale'], 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const orderId = await app.db.transaction((tx) => createSale(tx, req, me, req.body as SaleInput));
      return ok(await saleWithLines(app.db, me, orderId));
    },
  );
  app.post('/marketing/sale/orders/:id/cancel', { ...validated, schema: { tags, summary: 'Cancel a confirmed order: its quantities go back to the batches, its income is reversed', description: 'Needs sale:edit.', params: idParams, response: okObject() } }, async (req) => {
    const me = requireAction(req, ['sale'], 'edit');
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    await app.db.transaction((tx) => cancelSale(tx, req, me, req.params.id));
    return ok(await saleWithLines(app.db, me, req.params.id));
  });
}

function registerAccounts(app: TypedApp) {
  const periodQuery = { type: 'object', additionalProperties: false, properties: periodProps } as const;
  const checkPeriod = (req: FastifyRequest, q: { from?: string; to?: string }) => {
    if (q.from && q.to && q.to < q.from) throw invalidInput([{ field: 'to', message: t(req.lang, 'harvest.periodOrder') }], req.lang);
  };
  app.get(
    '/farmAccounting/entries/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Income and expense entries: by hand, from sales (source sale) and from purchases (source purchase: the stock-ins of the materials ledger that were not reversed)',
        description: `Needs one of ${ACCOUNT_MENUS.join(', ')}. Amounts are exact decimal strings.`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...paging, ...periodProps, direction: { type: 'string', enum: ['', 'income', 'expense'] }, category: { type: 'string', enum: ['', ...INCOME_CATEGORIES, ...EXPENSE_CATEGORIES] }, source: { type: 'string', enum: ['', 'manual', 'sale', 'purchase'] } },
        },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: ACCOUNT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      checkPeriod(req, q);
      return ok(await entryPage(app.db, me, { from: q.from, to: q.to, direction: q.direction || undefined, category: q.category || undefined, source: q.source || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );
  app.get('/farmAccounting/summary', { ...validated, schema: { tags, summary: 'Income, expense and profit of a period (exact decimal strings)', querystring: periodQuery, response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: ACCOUNT_MENUS });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    checkPeriod(req, req.query);
    return ok(await accountSummary(app.db, me, req.query));
  });
  for (const by of ['month', 'crop'] as const) {
    app.get(`/farmAccounting/report/${by}`, { ...validated, schema: { tags, summary: `Income, expense and profit by ${by} over a period`, querystring: periodQuery, response: okArray() } }, async (req) => {
      const me = requireCan(req, { menus: ACCOUNT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      checkPeriod(req, req.query);
      return ok(await accountReport(app.db, me, req.query, by));
    });
  }
  // The same report as a page, for the tables of the accounting screens (rows are few: one per crop).
  app.get(
    '/farmAccounting/report/crop/page',
    { ...validated, schema: { tags, summary: 'Income, expense and profit by crop over a period, as a page for tables', querystring: { type: 'object', additionalProperties: false, properties: { ...paging, ...periodProps } }, response: okPage() } },
    async (req) => {
      const me = requireCan(req, { menus: ACCOUNT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      checkPeriod(req, req.query);
      const rows = (await accountReport(app.db, me, req.query, 'crop')).map((r, i) => ({ id: i + 1, ...r }));
      const pageIndex = req.query.pageIndex ?? 1;
      const pageSize = req.query.pageSize ?? 20;
      return ok({ rows: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: rows.length, pageIndex, pageSize });
    },
  );
  app.get(
    '/farmAccounting/report/export',
    { ...validated, schema: { tags, summary: 'The period report as CSV (UTF-8 with BOM, for Excel): profit by month, then by crop, then the totals', querystring: periodQuery } },
    async (req, reply) => {
      const me = requireCan(req, { menus: ACCOUNT_MENUS });
      if (!ACCOUNT_MENUS.some((m) => can(me, m, 'export'))) throw forbidden();
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      checkPeriod(req, req.query);
      const [months, crops, total] = await Promise.all([accountReport(app.db, me, req.query, 'month'), accountReport(app.db, me, req.query, 'crop'), accountSummary(app.db, me, req.query)]);
      const head = { zh: ['期间', '收入', '支出', '利润'], en: ['Period', 'Income', 'Expense', 'Profit'], es: ['Periodo', 'Ingresos', 'Gastos', 'Beneficio'] }[req.lang];
      const none = { zh: '未分摊', en: 'Not allocated', es: 'Sin asignar' }[req.lang];
      const all = { zh: '合计', en: 'Total', es: 'Total' }[req.lang];
      const lines = [head, ...months.map((m) => [String(m.month), m.income, m.expense, m.profit]), [], head, ...crops.map((c) => [c.crop ?? none, c.income, c.expense, c.profit]), [], [all, total.income, total.expense, total.profit]];
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="farm-accounts.csv"');
      // Crop names are the farm's own text: csvDocument neutralises a formula-like one (runtime/format/csv.ts).
      return csvDocument(lines);
    },
  );
  app.post('/farmAccounting/entries', { ...validated, schema: { tags, summary: 'Post an income or expense entry by hand', description: 'Needs farmAccountingIndex:add or marketingFarmAccounting:add. The category must be of the direction.', body: entryBody, response: okObject() } }, async (req) => {
    const me = requireAction(req, ACCOUNT_MENUS, 'add');
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const entryId = await app.db.transaction((tx) => createEntry(tx, req, me, req.body as EntryInput & { farmId?: number }));
    return ok({ id: entryId });
  });
  app.delete('/farmAccounting/entries/:id', { ...validated, schema: { tags, summary: 'Delete an entry made by hand (those of sales and purchases are refused)', params: idParams, response: okObject() } }, async (req) => {
    const me = requireAction(req, ACCOUNT_MENUS, 'delete');
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    await app.db.transaction((tx) => deleteEntry(tx, req, me, req.params.id));
    return ok({ id: req.params.id });
  });
}

function registerTrace(app: TypedApp) {
  app.get('/trackInfoManage/codes/page', { ...validated, schema: { tags, summary: 'Trace codes with their batch, scans and reviews', querystring: { type: 'object', additionalProperties: false, properties: { ...paging, keyword: { type: 'string', maxLength: 64 } } }, response: okPage() } }, async (req) => {
    const me = requireCan(req, { menus: TRACE_MENUS });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const q = req.query;
    return ok(await traceCodePage(app.db, me, { keyword: q.keyword || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
  });
  app.post(
    '/trackInfoManage/codes',
    { ...validated, schema: { tags, summary: 'The trace code of a batch, made on first request (one per batch)', description: 'Needs trackInfoManageIndex:add or farmHarvestIndex:add.', body: { type: 'object', additionalProperties: false, required: ['harvestId'], properties: { harvestId: id } }, response: okObject() } },
    async (req) => {
      const me = requireAction(req, [...TRACE_MENUS, ...HARVEST_MENUS], 'add');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const code = await app.db.transaction((tx) => traceCodeFor(tx, req, me, req.body.harvestId));
      return ok({ code, url: `/t/${code}`, qrUrl: `/t/${code}/qr.svg` });
    },
  );
  app.get(
    '/commentSuggestion/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Consumers’ reviews and suggestions on the trace pages, unanswered first',
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, kind: { type: 'string', enum: ['', 'review', 'suggestion'] }, answered: { type: 'string', enum: ['', 'yes', 'no'] }, keyword: { type: 'string', maxLength: 64 } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: REVIEW_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(await reviewPage(app.db, me, { kind: q.kind || undefined, answered: q.answered || undefined, keyword: q.keyword || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );
  app.post(
    '/commentSuggestion/:id/answer',
    { ...validated, schema: { tags, summary: 'Answer a review or suggestion (the answer shows on the trace page)', params: idParams, body: { type: 'object', additionalProperties: false, required: ['answer'], properties: { answer: text(500) } }, response: okObject() } },
    async (req) => {
      const me = requireAction(req, REVIEW_MENUS, 'edit');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      await app.db.transaction((tx) => answerReview(tx, req, me, req.params.id, req.body.answer));
      return ok({ id: req.params.id });
    },
  );
}

/** The menus that read the trace reports; the material-lot report is also opened from the stock ledger. */
const REPORT_MENUS = [...HARVEST_MENUS, ...TRACE_MENUS];
const LOT_REPORT_MENUS = [...REPORT_MENUS, 'farmMaterialsStore'];
const exportQuery = { format: { type: 'string', enum: ['csv', 'xlsx'] } } as const;
const lotQuery = { materialId: id, lot: { type: 'string', minLength: 1, maxLength: 64 } } as const;
const today = () => new Date().toISOString().slice(0, 10);

function pageOf<T>(rows: T[], q: { pageIndex?: number; pageSize?: number }) {
  const pageIndex = q.pageIndex ?? 1;
  const pageSize = q.pageSize ?? 500;
  return { rows: rows.slice((pageIndex - 1) * pageSize, pageIndex * pageSize), total: rows.length, pageIndex, pageSize };
}

function requireExport(req: FastifyRequest, menus: string[]): SessionUser {
  const me = requireCan(req, { menus });
  if (!menus.some((m) => can(me, m, 'export'))) throw forbidden();
  return me;
}

function registerRecalls(app: TypedApp) {
  const sortField = `-?(${TRACE_SORT_FIELDS.join('|')})`;
  const sort = { type: 'string', maxLength: 120, pattern: `^(${sortField})(,${sortField}){0,4}$` } as const;
  const sendFile = async (reply: import('fastify').FastifyReply, rows: TraceEventRow[], lang: import('../i18n/lang.ts').Lang, format: 'csv' | 'xlsx', name: string) => {
    const file = await traceFile(rows, lang, format);
    return reply.header('content-type', file.contentType).header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'no-store').send(file.body);
  };

  app.get(
    '/farmHarvest/harvests/:id/lotTrace/export',
    {
      ...validated,
      schema: {
        tags,
        summary: 'The lot report of a batch as a file (FSMA 204 sortable spreadsheet): CSV (UTF-8 with BOM) or XLSX, one row per critical tracking event with its key data elements',
        description: `Needs one of ${REPORT_MENUS.join(', ')} with its :export element.`,
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, required: ['format'], properties: { ...exportQuery, sort } },
      },
    },
    async (req, reply) => {
      const me = requireExport(req, REPORT_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const report = await lotTrace(app.db, me, req.params.id, today());
      if (!report) throw notFound();
      return sendFile(reply, sortTraceRows(report.rows, req.query.sort), req.lang, req.query.format, traceFileName('lot', report.batchNo, req.query.format));
    },
  );

  app.get(
    '/farmHarvest/materialLots/trace',
    {
      ...validated,
      schema: {
        tags,
        summary: 'The material-lot report: where the lot came from (receiving), every planting group it was applied to, every batch harvested from those groups in the window, every sale of those batches with its customer, and what is on hand; one row per critical tracking event (FSMA 204), sortable',
        description: `Needs one of ${LOT_REPORT_MENUS.join(', ')}. The material must be of the caller’s farms (40401 otherwise).`,
        querystring: { type: 'object', additionalProperties: false, required: ['materialId', 'lot'], properties: { ...paging, ...lotQuery, sort } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: LOT_REPORT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const lot = await materialOfScope(app.db, me, req.query.materialId, req.query.lot.trim());
      if (!lot) throw notFound();
      return ok(pageOf(sortTraceRows(await materialLotTrace(app.db, lot, today()), req.query.sort), req.query));
    },
  );

  app.get(
    '/farmHarvest/materialLots/trace/export',
    {
      ...validated,
      schema: {
        tags,
        summary: 'The material-lot report as a file (FSMA 204 sortable spreadsheet): CSV (UTF-8 with BOM) or XLSX',
        description: `Needs one of ${LOT_REPORT_MENUS.join(', ')} with its :export element.`,
        querystring: { type: 'object', additionalProperties: false, required: ['materialId', 'lot', 'format'], properties: { ...lotQuery, ...exportQuery, sort } },
      },
    },
    async (req, reply) => {
      const me = requireExport(req, LOT_REPORT_MENUS);
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const lot = await materialOfScope(app.db, me, req.query.materialId, req.query.lot.trim());
      if (!lot) throw notFound();
      return sendFile(reply, sortTraceRows(await materialLotTrace(app.db, lot, today()), req.query.sort), req.lang, req.query.format, traceFileName('material-lot', lot.lot, req.query.format));
    },
  );

  app.get(
    '/farmHarvest/recalls/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Recalls of the caller’s farms, newest first: what was recalled (a batch, or a material lot and the batches it reached), why, customers, contacted and reconciled',
        description: `Needs one of ${REPORT_MENUS.join(', ')}.`,
        querystring: { type: 'object', additionalProperties: false, properties: { ...paging, kind: { type: 'string', enum: ['', 'batch', 'materialLot'] }, keyword: { type: 'string', maxLength: 64 } } },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: REPORT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const q = req.query;
      return ok(await recallPage(app.db, me, { kind: q.kind || undefined, keyword: q.keyword || undefined, pageIndex: q.pageIndex ?? 1, pageSize: q.pageSize ?? 20 }));
    },
  );

  app.post(
    '/farmHarvest/recalls',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Recall a batch, or a material lot with every batch it reached: the batches are marked (public page, sales refused), their customers listed and notified (notice and text message)',
        description: 'Needs farmHarvestIndex:recall. kind batch: harvestId; kind materialLot: materialId and lot (a lot of the stock ledger). One recall per batch and per lot (40001 the second time).',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['kind', 'reason'],
          properties: { kind: { type: 'string', enum: ['batch', 'materialLot'] }, harvestId: id, materialId: { anyOf: [id, { type: 'string', pattern: '^[1-9][0-9]{0,9}$' }] }, lot: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[^<>]*$' }, reason: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^<>]*$' } },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, HARVEST_MENUS, 'recall');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      const b = req.body;
      const missing = b.kind === 'batch' ? (b.harvestId ? [] : ['harvestId']) : [...(b.materialId ? [] : ['materialId']), ...(b.lot?.trim() ? [] : ['lot'])];
      if (missing.length) throw invalidInput(missing.map((field) => ({ field, message: t(req.lang, 'harvest.fieldRequired') })), req.lang);
      const input = b.kind === 'batch' ? { kind: 'batch' as const, harvestId: b.harvestId!, reason: b.reason } : { kind: 'materialLot' as const, materialId: Number(b.materialId), lot: b.lot!, reason: b.reason };
      const made = await app.db.transaction((tx) => createRecall(tx, req, me, input));
      await sendRecallTexts(app.db, app.sms, made.texts);
      return ok(await recallById(app.db, me, made.id));
    },
  );

  app.get('/farmHarvest/recalls/:id', { ...validated, schema: { tags, summary: 'One recall with its counts', description: `Needs one of ${REPORT_MENUS.join(', ')}.`, params: idParams, response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: REPORT_MENUS });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const r = await recallById(app.db, me, req.params.id);
    if (!r) throw notFound();
    return ok(r);
  });

  app.get(
    '/farmHarvest/recalls/:id/contacts/page',
    {
      ...validated,
      schema: {
        tags,
        summary: 'The customers of a recall: per batch and customer, contact, what was sold, the notice and text sent, contacted, returned, destroyed and what is still out',
        description: `Needs one of ${REPORT_MENUS.join(', ')}.`,
        params: idParams,
        querystring: { type: 'object', additionalProperties: false, properties: paging },
        response: okPage(),
      },
    },
    async (req) => {
      const me = requireCan(req, { menus: REPORT_MENUS });
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      if (!(await recallById(app.db, me, req.params.id))) throw notFound();
      return ok(await recallContacts(app.db, me, req.params.id, { pageIndex: req.query.pageIndex ?? 1, pageSize: req.query.pageSize ?? 50 }));
    },
  );

  app.get('/farmHarvest/recallContacts/:id', { ...validated, schema: { tags, summary: 'One customer of a recall, with the progress recorded', params: idParams, response: okObject() } }, async (req) => {
    const me = requireCan(req, { menus: REPORT_MENUS });
    if (req.validationError) throw refuseValidation(req.validationError, req.lang);
    const c = await recallContact(app.db, me, req.params.id);
    if (!c) throw notFound();
    return ok(c);
  });

  app.put(
    '/farmHarvest/recallContacts/:id',
    {
      ...validated,
      schema: {
        tags,
        summary: 'Record a recall’s progress with one customer: contacted, and the totals returned and destroyed so far; returned + destroyed never more than was sold to them',
        description: 'Needs farmHarvestIndex:recall.',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['contacted', 'returned', 'destroyed'],
          properties: {
            contacted: { type: 'boolean' },
            returned: { type: 'number', minimum: 0, maximum: 100000000 },
            destroyed: { type: 'number', minimum: 0, maximum: 100000000 },
            note: { type: 'string', maxLength: 500, pattern: '^[^<>]*$' },
          },
        },
        response: okObject(),
      },
    },
    async (req) => {
      const me = requireAction(req, HARVEST_MENUS, 'recall');
      if (req.validationError) throw refuseValidation(req.validationError, req.lang);
      await app.db.transaction((tx) => recordProgress(tx, req, me, req.params.id, req.body as ProgressInput));
      return ok(await recallContact(app.db, me, req.params.id));
    },
  );
}
