import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { sanitizeHtml } from '../../server/admin/sanitize.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

const T = (s: string) => ({ zh: `${s}（中）`, en: s, es: `${s} (es)` });

/** Payloads that must never come back with anything that runs, loads or frames. */
const XSS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" ONERROR="alert(1)">',
  '<body onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<p style="color:red;behavior:url(x.htc)">x</p>',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<object data="https://evil.example/x.swf"></object>',
  '<embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example"><input name=x><button>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<base href="https://evil.example/">',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="#" onclick="alert(1)">x</a>',
  '"><img src=x onerror=alert(1)>',
];

const DANGER = /<script|<iframe|<object|<embed|<form|<svg|<math|<style|<meta|<base|<link|\son[a-z]+\s*=|javascript:|vbscript:|data:|expression\(|url\(/i;

describe('server-side HTML sanitiser', () => {
  it('removes every script vector of the battery', () => {
    for (const payload of XSS) expect(sanitizeHtml(payload), payload).not.toMatch(DANGER);
  });

  it('keeps ordinary rich text: headings, lists, tables, safe links, images and harmless styles', () => {
    const html =
      '<h2>标题</h2><p style="color: #336699; text-align: center">正文 <strong>加粗</strong> <em>斜体</em></p>' +
      '<ul><li>一</li></ul><table><tbody><tr><td>1</td></tr></tbody></table>' +
      '<a href="https://www.moa.gov.cn" target="_blank">链接</a><img src="/logo.svg" alt="logo">';
    const out = sanitizeHtml(html);
    expect(out).toContain('<h2>标题</h2>');
    expect(out).toContain('style="color: #336699; text-align: center"');
    expect(out).toContain('<strong>加粗</strong>');
    expect(out).toContain('<td>1</td>');
    expect(out).toContain('href="https://www.moa.gov.cn"');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('<img src="/logo.svg" alt="logo">');
  });
});

describe.each(engines())('administration content on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });
  const pub = (url: string) => f.app.inject({ method: 'GET', url }).then((r) => ({ http: r.statusCode, ...r.json() }));

  describe('articles', () => {
    it('cleans the body on every write, through create and update', async () => {
      const add = await f.as('admin', 'POST', '/api/articleManage/articles', { title: 'XSS battery', category: 'news', status: 0, content: XSS.join('\n<p>safe</p>\n') });
      expect(add.status).toBe(200);
      expect(add.data.content).not.toMatch(DANGER);
      expect(add.data.content).toContain('<p>safe</p>');
      const stored = await f.db.query<{ data: { content: string } }>('SELECT data FROM resource_records WHERE id = $1', [add.data.id]);
      expect(stored.rows[0].data.content).not.toMatch(DANGER);
      for (const payload of XSS) {
        const current = (await f.as('admin', 'GET', `/api/articleManage/articles/${add.data.id}`)).data;
        const upd = await f.as('admin', 'PUT', `/api/articleManage/articles/${add.data.id}`, { ...current, content: `<p>before</p>${payload}` });
        expect(upd.status, payload).toBe(200);
        expect(upd.data.content, payload).not.toMatch(DANGER);
      }
      // Title and summary are plain text: markup is refused outright.
      const tagged = await f.as('admin', 'POST', '/api/articleManage/articles', { title: '<img src=x onerror=alert(1)>', category: 'news', status: 0, content: '<p>x</p>' });
      expect(tagged.status).toBe(40001);
      expect(tagged.data.errors.map((e: { field: string }) => e.field)).toContain('title');
    });

    it('stamps the publishing date on publication, keeps it on later edits and drops it when withdrawn', async () => {
      const draft = await f.as('admin', 'POST', '/api/articleManage/articles', {
        title: '黑土地保护性耕作', category: 'technique', status: 0, content: '<p>秸秆覆盖</p>', publishedAt: '2001-01-01T00:00:00.000Z',
      });
      expect(draft.data.publishedAt).toBeUndefined();
      expect(draft.data.author).toBe('平台管理员');
      expect((await pub(`/api/articles/public/${draft.data.id}`)).status).toBe(40401);

      const t0 = Date.now();
      const published = await f.as('admin', 'PUT', `/api/articleManage/articles/${draft.data.id}`, { ...draft.data, status: 1 });
      expect(published.status).toBe(200);
      const at = Date.parse(published.data.publishedAt);
      expect(at).toBeGreaterThanOrEqual(t0 - 1000);
      expect(await f.auditCount('articles.update', draft.data.id)).toBe(1);

      const edited = await f.as('admin', 'PUT', `/api/articleManage/articles/${draft.data.id}`, { ...published.data, summary: '秸秆覆盖还田', publishedAt: '2030-01-01T00:00:00.000Z' });
      expect(edited.data.publishedAt).toBe(published.data.publishedAt);

      const open = await pub(`/api/articles/public/${draft.data.id}`);
      expect(open.status).toBe(200);
      expect(open.data).toMatchObject({ id: draft.data.id, title: '黑土地保护性耕作', content: '<p>秸秆覆盖</p>', summary: '秸秆覆盖还田' });
      expect(open.data).not.toHaveProperty('status');

      const withdrawn = await f.as('admin', 'PUT', `/api/articleManage/articles/${draft.data.id}`, { ...edited.data, status: 0 });
      expect(withdrawn.data.publishedAt).toBeUndefined();
      expect((await pub(`/api/articles/public/${draft.data.id}`)).status).toBe(40401);
    });

    it('needs the publish element to publish', async () => {
      // An editor who may add and edit articles but not publish them.
      const add = await f.as('admin', 'POST', '/api/admin/role', { code: 'articleEditor', name: T('Article editor') });
      await f.as('admin', 'PUT', `/api/admin/role/${add.data.id}/permissions`, {
        version: 1, menus: ['articleManageIndex'], elements: ['articleManageIndex:add', 'articleManageIndex:edit'],
      });
      const agent = await f.userId('agent');
      const roles = (await f.as('admin', 'GET', `/api/admin/user/${agent}`)).data.roles.map((r: { id: number }) => r.id);
      await f.as('admin', 'PUT', `/api/admin/user/${agent}/roles`, { roleIds: [...roles, add.data.id] });
      const draft = await f.as('agent', 'POST', '/api/articleManage/articles', { title: '待审稿件', category: 'news', status: 0, content: '<p>x</p>' });
      expect(draft.status).toBe(200);
      expect((await f.as('agent', 'POST', '/api/articleManage/articles', { title: '直接发布', category: 'news', status: 1, content: '<p>x</p>' })).status).toBe(40301);
      expect((await f.as('agent', 'PUT', `/api/articleManage/articles/${draft.data.id}`, { ...draft.data, status: 1 })).status).toBe(40301);
      expect((await f.as('admin', 'PUT', `/api/articleManage/articles/${draft.data.id}`, { ...draft.data, status: 1 })).status).toBe(200);
    });

    it('searches published articles without a token, never drafts', async () => {
      const all = await pub('/api/articles/public/search?pageSize=100');
      expect(all.status).toBe(200);
      expect(Object.keys(all.data).sort()).toEqual(['pageIndex', 'pageSize', 'rows', 'total']);
      expect(all.data.rows.length).toBeGreaterThanOrEqual(4);
      const dates = all.data.rows.map((r: { publishedAt: string }) => r.publishedAt);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(all.data.rows[0]).not.toHaveProperty('content');
      const draftTitles = (await f.db.query<{ t: string }>(`SELECT data->>'title' AS t FROM resource_records WHERE resource = 'articles' AND data->>'status' = '0'`)).rows.map((r) => r.t);
      expect(draftTitles.length).toBeGreaterThan(0);
      for (const title of draftTitles) expect(all.data.rows.map((r: { title: string }) => r.title)).not.toContain(title);
      const draft = await pub(`/api/articles/public/search?keyword=${encodeURIComponent('运维公告')}`);
      expect(draft.data.total).toBe(0);
      const maize = await pub(`/api/articles/public/search?keyword=${encodeURIComponent('大垄双行')}`);
      expect(maize.data.rows.map((r: { title: string }) => r.title)).toEqual(['玉米大垄双行密植技术在松嫩平原的应用']);
      const byCategory = await pub('/api/articles/public/search?category=policy');
      expect(byCategory.data.rows.every((r: { category: string }) => r.category === 'policy')).toBe(true);
      // % and _ are literal characters: only the article that writes "8%–12%" matches "%–".
      expect((await pub(`/api/articles/public/search?keyword=${encodeURIComponent('%–')}`)).data.total).toBe(1);
      expect((await pub(`/api/articles/public/search?keyword=${encodeURIComponent('%%')}`)).data.total).toBe(0);
      for (const q of ['keyword=' + 'x'.repeat(65), 'category=secret', 'pageSize=1000', 'status=0']) {
        expect((await pub(`/api/articles/public/search?${q}`)).status, q).toBe(40001);
      }
      expect((await pub('/api/articles/public/abc')).status).toBe(40001);
      expect((await pub('/api/articles/public/999999')).status).toBe(40401);
    });
  });

  describe('dictionaries', () => {
    it('serves the enabled items of a dictionary to any signed-in user, in item order', async () => {
      for (const who of ['farm', 'mobile', 'agent']) {
        const r = await f.as(who, 'GET', '/api/dict/unit/items');
        expect(r.status, who).toBe(200);
        expect(r.data[0]).toEqual({ value: 'kg', label: { zh: '公斤', en: 'Kilogram', es: 'Kilogramo' } });
        expect(r.data.map((i: { value: string }) => i.value)).not.toContain('piece');
      }
      const crop = await f.as('farm', 'GET', '/api/dict/cropCategory/items');
      expect(crop.data[0]).toMatchObject({ value: 'grain', color: 'gold' });
      expect((await f.as('farm', 'GET', '/api/dict/harvestGrade/items')).status).toBe(40401);
      expect((await f.as('farm', 'GET', '/api/dict/nothingHere/items')).status).toBe(40401);
      expect((await f.as('farm', 'GET', '/api/dict/bad%20code/items')).status).toBe(40001);
    });

    it('creates and edits dictionaries with unique codes and item values; the read follows', async () => {
      const body = {
        code: 'pestLevel', name: T('Pest level'), status: 1,
        items: [
          { value: 'high', label: T('High'), sort: 2, enabled: true, color: 'red' },
          { value: 'low', label: T('Low'), sort: 1, enabled: true },
        ],
      };
      const add = await f.as('admin', 'POST', '/api/admin/dicts', body);
      expect(add.status).toBe(200);
      expect((await f.as('farm', 'GET', '/api/dict/pestLevel/items')).data.map((i: { value: string }) => i.value)).toEqual(['low', 'high']);
      // A code names its dictionary whatever its case, as codes are unique whatever their case.
      expect((await f.as('farm', 'GET', '/api/dict/pestlevel/items')).data.map((i: { value: string }) => i.value)).toEqual(['low', 'high']);
      const dup = await f.as('admin', 'POST', '/api/admin/dicts', { ...body, code: 'PESTLEVEL' });
      expect(dup.status).toBe(40001);
      expect(dup.data.errors[0].field).toBe('code');
      const repeated = await f.as('admin', 'PUT', `/api/admin/dicts/${add.data.id}`, { ...add.data, items: [...body.items, { value: 'low', label: T('Low'), sort: 3, enabled: true }] });
      expect(repeated.status).toBe(40001);
      expect(repeated.data.errors[0].field).toBe('items.2.value');
      const upd = await f.as('admin', 'PUT', `/api/admin/dicts/${add.data.id}`, { ...add.data, items: [{ ...body.items[0], enabled: false }, body.items[1]] });
      expect(upd.status).toBe(200);
      expect((await f.as('farm', 'GET', '/api/dict/pestLevel/items')).data.map((i: { value: string }) => i.value)).toEqual(['low']);
      // Its own code is not a clash with itself.
      expect((await f.as('admin', 'PUT', `/api/admin/dicts/${add.data.id}`, { ...upd.data, name: T('Pest levels') })).status).toBe(200);
      for (const bad of [
        { ...body, code: 'x' },
        { ...body, code: '1abc' },
        { ...body, name: { zh: 'a', en: 'b' } },
        { ...body, items: [{ value: 'a b', label: T('x'), sort: 1, enabled: true }] },
        { ...body, items: [{ value: 'a', label: T('x'), sort: 1, enabled: true, color: 'red;x' }] },
        { ...body, items: [{ value: 'a', label: { ...T('x'), zh: '<b>x</b>' }, sort: 1, enabled: true }] },
        { ...body, items: Array.from({ length: 201 }, (_, i) => ({ value: `v${i}`, label: T('x'), sort: i, enabled: true })) },
      ]) {
        expect((await f.as('admin', 'POST', '/api/admin/dicts', bad)).status, JSON.stringify(bad).slice(0, 80)).toBe(40001);
      }
    });
  });

  describe('app versions', () => {
    it('keeps one record per platform and version code, and tells the app its newest published version', async () => {
      const latest = await pub('/api/app/version/latest?platform=android');
      expect(latest.data).toMatchObject({ versionCode: 310, versionName: '3.1.0', forceUpdate: false });
      expect(Object.keys(latest.data)).toEqual(['id', 'platform', 'versionCode', 'versionName', 'downloadUrl', 'fileSizeMb', 'minOsVersion', 'releaseNotes', 'forceUpdate']);
      const body = { platform: 'android', versionCode: 330, versionName: '3.3.0', downloadUrl: 'https://download.example.com/farm/farm-3.3.0.apk', forceUpdate: true, published: false, releaseNotes: T('Fixes') };
      const add = await f.as('admin', 'POST', '/api/promotion/appVersions', body);
      expect(add.status).toBe(200);
      expect((await pub('/api/app/version/latest?platform=android')).data.versionCode).toBe(310);
      // latest is the first row of the public read of appVersions: an unpublished version is in neither.
      const search = await pub('/api/app/version/search?platform=android&pageSize=500');
      expect(search.data.rows[0]).toEqual(latest.data);
      expect(search.data.rows.map((r: { versionCode: number }) => r.versionCode)).not.toContain(330);
      expect((await pub(`/api/app/version/${add.data.id}`)).status).toBe(40401);
      const dup = await f.as('admin', 'POST', '/api/promotion/appVersions', { ...body, versionName: '3.3.1' });
      expect(dup.status).toBe(40001);
      expect(dup.data.errors[0].field).toBe('versionCode');
      expect((await f.as('admin', 'POST', '/api/promotion/appVersions', { ...body, platform: 'ios' })).status).toBe(200);
      await f.as('admin', 'PUT', `/api/promotion/appVersions/${add.data.id}`, { ...add.data, published: true });
      expect((await pub('/api/app/version/latest?platform=android')).data).toMatchObject({ versionCode: 330, forceUpdate: true });
      for (const bad of [{ ...body, versionCode: 331, downloadUrl: 'javascript:alert(1)' }, { ...body, versionCode: 332, versionName: 'v3' }, { ...body, versionCode: 0 }, { ...body, versionCode: 333, platform: 'symbian' }]) {
        expect((await f.as('admin', 'POST', '/api/promotion/appVersions', bad)).status).toBe(40001);
      }
      expect((await pub('/api/app/version/latest?platform=symbian')).status).toBe(40001);
    });
  });

  describe('role categories', () => {
    it('refuses deleting a category roles still use, and duplicate codes', async () => {
      const page = await f.as('admin', 'GET', '/api/admin/roleCategories/page');
      expect(page.data.rows.map((r: { code: string }) => r.code)).toEqual(['platform', 'farmStaff', 'industry', 'services']);
      const industry = page.data.rows.find((r: { code: string }) => r.code === 'industry');
      const refused = await f.as('admin', 'DELETE', `/api/admin/roleCategories/${industry.id}`);
      expect(refused.status).toBe(40001);
      expect((await f.as('admin', 'DELETE', '/api/admin/roleCategories/batch', { ids: [industry.id] })).status).toBe(40001);
      expect((await f.as('admin', 'POST', '/api/admin/roleCategories', { code: 'Industry', name: T('x'), position: 1 })).status).toBe(40001);
      const spare = await f.as('admin', 'POST', '/api/admin/roleCategories', { code: 'seasonal', name: T('Seasonal'), position: 5, orgTypes: [0] });
      expect(spare.status).toBe(200);
      expect((await f.as('admin', 'DELETE', `/api/admin/roleCategories/${spare.data.id}`)).status).toBe(200);
    });
  });

  describe('plots and planting groups', () => {
    it('keeps each farm’s plots to itself and links planting groups to plots of the same farm', async () => {
      // A farm reads its own plots (the planting group form picks them), never another farm's.
      const mine = await f.as('farm', 'GET', '/api/admin/fields/page?pageSize=50');
      expect(mine.status).toBe(200);
      const all = await f.as('admin', 'GET', '/api/admin/fields/page?pageSize=50');
      const farm1 = await f.orgOf('farm');
      const farm2 = await f.orgOf('farm2');
      expect(mine.data.rows.length).toBeGreaterThan(0);
      expect(mine.data.rows.every((r: { farmId: number }) => r.farmId === farm1)).toBe(true);
      // The seedling base grows seedlings in a greenhouse plot of its own (the planting seed).
      expect(new Set(all.data.rows.map((r: { farmId: number }) => r.farmId))).toEqual(new Set([farm1, farm2, await f.orgOf('nursery')]));
      expect(all.data.rows.find((r: { code: string }) => r.code === 'HF-01').labels.cropId).toBe('水稻');

      const groups = await f.as('farm', 'GET', '/api/farmPlantGroup/groups/page');
      expect(groups.status).toBe(200);
      expect(groups.data.rows.every((r: { farmId: number }) => r.farmId === farm1)).toBe(true);
      expect(groups.data.rows[0].labels).toHaveProperty('fieldId');
      const otherPlot = all.data.rows.find((r: { farmId: number }) => r.farmId === farm2).id;
      const crop = groups.data.rows[0].cropId;
      const cross = await f.as('farm', 'POST', '/api/farmPlantGroup/groups', { name: '越界', cropId: crop, fieldId: otherPlot, areaMu: 1, plantedOn: '2026-05-01', stage: 'seedling' });
      expect(cross.status).toBe(40001);
      expect(cross.data.errors[0].field).toBe('fieldId');
      const own = all.data.rows.find((r: { farmId: number; code: string }) => r.farmId === farm1 && r.code === 'HF-03').id;
      const ok = await f.as('farm', 'POST', '/api/farmPlantGroup/groups', { name: '北洼地燕麦', cropId: crop, fieldId: own, areaMu: 40, plantedOn: '2026-05-01', stage: 'seedling' });
      expect(ok.status).toBe(200);
      // A plot in use is not deleted.
      expect((await f.as('admin', 'DELETE', `/api/admin/fields/${own}`)).status).toBe(40001);
    });
  });
});
