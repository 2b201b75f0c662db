/**
 * axe-core over every screen (issue 9, item 7): every route of every screen document the
 * admin account may open, each in zh, the shell's own pages, and every route of the farm
 * account, each must show no serious or critical violation. `npm test` walks one screen
 * of each kind and every screen changed since the last full walk; `npm run test:full`
 * walks them all (walk-scope.ts). The routes come from the
 * documents on disk, so a new screen is walked without editing this file; a route with
 * parameters needs a filler below, and the walk fails for one that has none.
 *
 * One browser, one page per account: the console is loaded once and then navigated from
 * inside (history.pushState and a popstate), as a user clicking menus would, which keeps
 * the walk to a few seconds.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, navigateInConsole } from './browser.ts';
import { api, apiToken, injectAxe, openShell } from './shell-support.ts';
import { FULL_WALK, kindKey, screenFiles, walkSelector, type WalkedDoc } from './walk-scope.ts';
import { readsOnly } from './file-server.ts';

// Reads and navigates only: the project's shared server (file-server.ts).
readsOnly();

const screenDocs = (): WalkedDoc[] => screenFiles().map((f) => f.doc);

let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** Values for route parameters: a real record where the screen reads one. */
async function fillers(token: string): Promise<Record<string, string>> {
  const crops = await api<{ rows: { id: number; createdBy?: number }[] }>(token, '/api/kms/crops/page?pageIndex=1&pageSize=1');
  const crop = crops.data.rows[0];
  const articles = await api<{ rows: { id: number }[] }>(token, '/api/articles/public/search?pageIndex=1&pageSize=1');
  const article = articles.data.rows?.[0];
  // The user's own records where it sees some; otherwise a record it cannot see (the
  // screen's not-found state is a screen too and must pass axe as well).
  const first = async <T,>(url: string): Promise<T | undefined> => {
    const page = await api<{ rows?: T[] }>(token, url).catch(() => undefined);
    return page?.data?.rows?.[0];
  };
  type Row = { id: number; createdBy?: number; kind?: string; groupId?: number; planId?: number; orderNumber?: number; cropId?: number; name?: string };
  const template = (await first<Row>('/api/agricultureKnowledge/planTemplates/page?pageIndex=1&pageSize=1')) ?? { id: 0, kind: 'seasonWork' };
  const sysTemplate = (await first<Row>('/api/kms/systemTemplates/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const group = (await first<Row>('/api/farmPlantGroup/groups/page?pageIndex=1&pageSize=1')) ?? { id: 0, name: 'x', cropId: 0 };
  const plan = (await first<Row>(`/api/farmPlantGroup/plans/page?pageIndex=1&pageSize=1&groupId=${group.id}`)) ?? { id: 0, groupId: group.id };
  const task = (await first<Row>(`/api/farmPlantGroup/tasks/page?pageIndex=1&pageSize=1&planId=${plan.id}`)) ?? { id: 0, orderNumber: 1 };
  const planItem = (await first<Row>(`/api/farmPlantGroup/planItems/page?pageIndex=1&pageSize=1&planId=${plan.id}&itemType=work`)) ?? { id: 0 };
  const groupName = encodeURIComponent(group.name ?? 'x');
  const stockIn = (await first<Row>('/api/farmMaterials/movements/page?pageIndex=1&pageSize=1&direction=in')) ?? { id: 0 };
  const stockOut = (await first<Row>('/api/farmMaterials/movements/page?pageIndex=1&pageSize=1&direction=out')) ?? { id: 0 };
  const stock = (await first<{ goodsCode?: string; storeId?: number }>('/api/farmMaterials/stock/page?pageIndex=1&pageSize=1')) ?? { goodsCode: 'x', storeId: 0 };
  const plot = (await first<Row>('/api/admin/fields/page?pageIndex=1&pageSize=1&sort=-id')) ?? { id: 0 };
  const houseGroup = (await first<Row>('/api/land/greenhouseGroups/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const house = (await first<Row>('/api/land/greenhouses/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const purchase = (await first<Row>('/api/farmMaterials/purchase/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const factoryOrder = (await first<Row>('/api/fertilizerFactory/orders/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const offer = (await first<Row>('/api/shareMaterial/offers/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const pesticide = (await first<Row>('/api/kms/tankMaterials/page?pageIndex=1&pageSize=1&mainType=pesticide')) ?? { id: 0 };
  const product = (await first<Row>('/api/fertilizerFactory/products/page?pageIndex=1&pageSize=1&sort=id')) ?? { id: 0 };
  const combo = (await first<Row>('/api/fertilizerFactory/combos/page?pageIndex=1&pageSize=1&sort=id')) ?? { id: 0 };
  // A farm material the manufacturer wrote an article for (the seed's FW-001 of the first farm).
  const withArticle = (await first<Row>('/api/farmMaterials/list/page?pageIndex=1&pageSize=1&sort=id&goodsCode=FW-001')) ?? { id: 0 };
  const harvest = (await first<Row>('/api/farmHarvest/harvests/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  const material = (await first<Row>('/api/farmMaterials/list/page?pageIndex=1&pageSize=1&sort=id')) ?? { id: 0 };
  const recall = (await first<Row>('/api/farmHarvest/recalls/page?pageIndex=1&pageSize=1')) ?? { id: 0 };
  return {
    '/farmHarvest/materialLotTrace/:materialId': `/farmHarvest/materialLotTrace/${material.id}`,
    '/farmHarvest/recalls/:id': `/farmHarvest/recalls/${recall.id}`,
    '/farmHarvest/lotTrace/:id': `/farmHarvest/lotTrace/${harvest.id}`,
    '/fertilizerFactory/article/:id': `/fertilizerFactory/article/${product.id}`,
    '/fertilizerFactory/comboArticle/:id': `/fertilizerFactory/comboArticle/${combo.id}`,
    '/farmMaterialsManage/article/:id': `/farmMaterialsManage/article/${withArticle.id}`,
    '/farmMaterialsManage/requirementList/trackInfo/:plantGroupId': `/farmMaterialsManage/requirementList/trackInfo/${group.id}`,
    '/shareMaterial/editGoods/:operate/:goodsId/:tankMaterialSummaryId': `/shareMaterial/editGoods/show/${offer.id}/0`,
    // The library form in edit mode with a pesticide: the kind with the most fields.
    '/agricultureKnowledge/material/add/:operate/:tankMaterialSummaryId/:mainType': `/agricultureKnowledge/material/edit/edit/${pesticide.id}/pesticide`,
    '/showMap/management/:id': `/showMap/management/${plot.id}`,
    '/Bigland/detail/:id': `/Bigland/detail/${plot.id}`,
    '/sunlightGreenhouse/slghGroup/:id': `/sunlightGreenhouse/slghGroup/${houseGroup.id}`,
    '/sunlightGreenhouse/slghEntity/:id': `/sunlightGreenhouse/slghEntity/${house.id}`,
    '/maptalk/:one/:two/:three': '/maptalk/126.31/45.38/14',
    '/farmMaterialsManage/purchase/detail/:operate/:id': `/farmMaterialsManage/purchase/detail/show/${purchase.id}`,
    '/fertilizerFactory/purchase/detail/:operate/:id': `/fertilizerFactory/purchase/detail/show/${factoryOrder.id}`,
    '/farmMaterialsManage/requirementList/detail/:operate/:id': '/farmMaterialsManage/requirementList/detail/show/0',
    '/marketing/productDetail/:opType/:id': '/marketing/productDetail/add/0',
    '/farmMaterialsManage/addEnterGoods/:operate/:id': `/farmMaterialsManage/addEnterGoods/show/${stockIn.id}`,
    '/farmMaterialsManage/addOutGoods/:operate/:id': `/farmMaterialsManage/addOutGoods/show/${stockOut.id}`,
    '/farmMaterialsManage/stock/detail/:goodscode/:storeid': `/farmMaterialsManage/stock/detail/${encodeURIComponent(stock.goodsCode ?? 'x')}/${stock.storeId ?? 0}`,
    '/farmMaterialsManage/addEditShow/:operate/:id': '/farmMaterialsManage/addEditShow/add/0',
    '/farmMaterialsManage/addSupplier/:operate/:id': '/farmMaterialsManage/addSupplier/add/0',
    '/agricultureKnowledge/keyNodeTemplate/:id/:createrId': `/agricultureKnowledge/keyNodeTemplate/${template.id}/${template.createdBy ?? 1}`,
    '/agricultureKnowledge/template/:typeId/:templateId/:label': `/agricultureKnowledge/template/${template.kind ?? 'seasonWork'}/${template.id}/show`,
    '/agricultureKnowledge/AllSeasonFarming/:id/:createrId': `/agricultureKnowledge/AllSeasonFarming/${template.id}/${template.createdBy ?? 1}`,
    '/farmPlantGroup/AllSeasonFarming/:id/:createrId': `/farmPlantGroup/AllSeasonFarming/${template.id}/${template.createdBy ?? 1}`,
    '/sysTemplateManage/templateEdit/:templateId': `/sysTemplateManage/templateEdit/${sysTemplate.id}`,
    '/farmPlantGroup/FarmingPlanDetail2/:id/:planId': `/farmPlantGroup/FarmingPlanDetail2/${group.id}/${plan.id}`,
    '/farmPlantGroup/farmingRecordList/:taskId': `/farmPlantGroup/farmingRecordList/${task.id}`,
    '/farmPlantGroup/FarmingPlanDetail/:id': `/farmPlantGroup/FarmingPlanDetail/${group.id}`,
    '/farmPlantGroup/flowerDetail/:positionType/:planId': `/farmPlantGroup/flowerDetail/field/${plan.id}`,
    '/farmPlantGroup/makePlantPlan/:id/:planTypeId': `/farmPlantGroup/makePlantPlan/${group.id}/3`,
    '/farmPlantGroup/planAndRecord/:groupId/:plantPlanId/:orderNumber/:taskId': `/farmPlantGroup/planAndRecord/${group.id}/${plan.id}/${task.orderNumber ?? 1}/${task.id}`,
    '/farmPlantGroup/add/:id/:planId': `/farmPlantGroup/add/${group.id}/${plan.id}`,
    '/farmPlantGroup/planItem/edit/:itemId': `/farmPlantGroup/planItem/edit/${planItem.id}`,
    '/farmPlantGroup/FarmingManagement/:cropId/:allSeasonFarmImplementId/:allSeasonFarmPlanId': `/farmPlantGroup/FarmingManagement/${group.cropId ?? 0}/${group.id}/${plan.id}`,
    '/examineFactory/plantAdmin/plan/:id': `/examineFactory/plantAdmin/plan/${plan.id}`,
    '/farmPlantGroup/editDetail/:id/:name/:ruleId': `/farmPlantGroup/editDetail/${group.id}/${groupName}/0`,
    '/farmPlantGroup/management/:id': `/farmPlantGroup/management/${group.id}`,
    '/farmPlantGroup/trace/:id/:name/:ruleId': `/farmPlantGroup/trace/${group.id}/${groupName}/0`,
    '/farmPlantGroup/publistFarmingTask/:groupId/:plantPlanId/:orderNumber': `/farmPlantGroup/publistFarmingTask/${group.id}/${plan.id}/${task.orderNumber ?? 1}`,
    '/sunlightGreenhouse/taskAllocation/:id/:type/:allId/:ppId': `/sunlightGreenhouse/taskAllocation/${group.id}/greenhouse/0/${plan.id}`,
    '/agricultureKnowledge/growthCycle/:id/:createrId': `/agricultureKnowledge/growthCycle/${crop.id}/${crop.createdBy ?? 1}`,
    '/multiFarm/showplantgroup/:farmId': '/multiFarm/showplantgroup/1',
    '/articleManage/article/:id/:type': '/articleManage/article/0/add',
    '/agricultureKnowledge/addPlantRules/:operate/:id': '/agricultureKnowledge/addPlantRules/add/0',
    '/articleDetailBeforeLogin/:id': `/articleDetailBeforeLogin/${article?.id ?? 1}`,
    '/searchArticleBeforeLogin/:keyword': '/searchArticleBeforeLogin/%E6%B0%B4%E7%A8%BB',
    '/studio/edit/:kind/:name': '/studio/edit/screen/cropsManager',
  };
}

/**
 * One route per screen (its first), filled in; the screens the user's menu codes grant,
 * narrowed to the walk's selection (walk-scope.ts: every screen in a full walk).
 */
function routesFor(menus: ReadonlySet<string>, fill: Record<string, string>): { id: string; path: string }[] {
  const out: { id: string; path: string }[] = [];
  // `*`: any signed-in user (the regional big screen).
  const opens = (doc: WalkedDoc) => !!doc.route && (!!doc.public || doc.authority === '*' || menus.has(doc.authority));
  const walked = walkSelector(opens);
  for (const doc of screenDocs()) {
    if (!doc.route || !opens(doc) || !walked(doc)) continue;
    const path = doc.route.includes(':') ? fill[doc.route] : doc.route;
    if (!path) throw new Error(`screens-axe: no parameters for ${doc.route} (${doc.id}); add a filler`);
    out.push({ id: doc.id, path });
  }
  return out;
}

/** axe-core in the page: serious and critical violations, each with what axe says of its first nodes. */
async function axeSeriousViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  await injectAxe(page);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<Result> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`) }));
  });
}

/** Navigates inside the loaded console and waits for the page to settle (no busy region, no request). */
async function visit(page: Page, path: string): Promise<void> {
  await navigateInConsole(page, path);
  // Settled: the screen's chunk and data arrived (no skeleton, no busy region, no spinner).
  const busy = '[aria-busy="true"], .ant-skeleton, .ant-spin-spinning';
  // Only what shows: a list kept alive in a hidden tab stays busy until it is shown again.
  const shown = (sel: string) => [...document.querySelectorAll(sel)].find((el) => el.checkVisibility());
  await page.waitForFunction(`!(${shown.toString()})(${JSON.stringify(busy)})`, undefined, { timeout: 15_000 }).catch(async () => {
    const still = await page.evaluate(`(${shown.toString()})(${JSON.stringify(busy)})?.outerHTML.slice(0, 300)`);
    throw new Error(`screens-axe: ${path} did not settle: ${still}`);
  });
}

async function walk(user: string, width: number): Promise<{ visited: string[]; failures: { path: string; violations: unknown[] }[] }> {
  const token = await apiToken(user);
  const info = await api<{ menus: { code: string }[] }>(token, `/api/admin/user/front/info?token=${encodeURIComponent(token)}`);
  const menus = new Set(info.data.menus.map((m) => m.code));
  const routes = [{ id: 'dashboard', path: '/dashboard' }, { id: 'errorLog', path: '/errorLog' }, ...routesFor(menus, await fillers(token))];
  const opened = await openShell(browser, { user, width, lang: 'zh' });
  context = opened.context;
  // axe judges colours as they end, not halfway through a transition (a tab turning inactive).
  await opened.page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  const failures: { path: string; violations: unknown[] }[] = [];
  for (const r of routes) {
    await visit(opened.page, r.path);
    let violations = await axeSeriousViolations(opened.page);
    // A loaded machine can catch the page between two renders (a tab leaving, a field
    // being replaced): judge again once it has settled; what stays is a real violation.
    if (violations.length) {
      await opened.page.waitForTimeout(1_000);
      await visit(opened.page, r.path);
      violations = await axeSeriousViolations(opened.page);
    }
    if (violations.length) failures.push({ path: r.path, violations });
  }
  await context.close();
  context = undefined;
  return { visited: routes.map((r) => r.path), failures };
}

describe('axe-core over every screen', { timeout: 600_000 }, () => {
  it('admin: every screen it may open, no serious or critical violation (1440)', async () => {
    const { visited, failures } = await walk('admin', 1440);
    // Every screen document with a route is the admin's: a full walk covers them all, and
    // `npm test` one of each kind and the changed ones (walk-scope.ts).
    const kinds = new Set(screenDocs().filter((d) => d.route).map(kindKey));
    if (FULL_WALK) expect(visited.length).toBe(2 + screenDocs().filter((d) => d.route).length);
    else expect(visited.length).toBeGreaterThanOrEqual(2 + kinds.size);
    expect(failures).toEqual([]);
  });

  it('farm: every screen it may open, no serious or critical violation (800)', async () => {
    const { visited, failures } = await walk('farm', 800);
    expect(visited.length).toBeGreaterThan(3);
    expect(failures).toEqual([]);
  });
});
