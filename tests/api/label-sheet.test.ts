/**
 * The 合格证 label sheet (issue 25 item 5; docs/harvest-sales-trace.md, "Label sheet"): a print
 * ticket made with the trace list's authority and the farm's scope, the HTML sheet and the PDF
 * it opens; every QR encodes PUBLIC_BASE_URL/t/<code> whatever the request's Host says; refused
 * with a sentence without PUBLIC_BASE_URL. The PDF is read back with pdf.js (text and images)
 * and each QR image decoded with jsQR.
 */
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LABELS_PER_PAGE, MAX_LABELS, qrPng, TICKET_TTL_SECONDS } from '../../server/harvest/label-sheet.ts';
import { traceUrl } from '../../server/harvest/trace-page.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { call } from './resource-fixtures.ts';
import { readPdf } from './pdf-reader.ts';

const BASE = 'https://trace.farm.test';

describe.each(engines())('the label sheet on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  /** Two codes of 禾丰生态农场 that may be printed, and its recalled batch's code. */
  let codes: { code: string; batchNo: string; harvestedOn: string }[];
  let recalled: { code: string; batchNo: string };
  let otherFarmCode: string;

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const ticket = async (body: unknown, token = farm, lang = 'zh', headers: Record<string, string> = {}) => {
    const raw = await t.app.inject({ method: 'POST', url: '/api/trackInfoManage/labelSheets', headers: { authorization: token, 'accept-language': lang, ...headers }, payload: body as object });
    return { http: raw.statusCode, ...(raw.json() as { status: number; message: string; data: any }) };
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    const { rows } = await t.db.query<{ code: string; batch_no: string; harvested_on: string; recalled: boolean; farm: string }>(
      `SELECT c.code, h.batch_no, h.harvested_on::text, h.recalled_at IS NOT NULL AS recalled, o.name AS farm
         FROM trace_codes c JOIN harvests h ON h.id = c.harvest_id JOIN organisations o ON o.id = h.farm_id ORDER BY h.id`,
    );
    const mine = rows.filter((r) => r.farm === '禾丰生态农场');
    recalled = mine.filter((r) => r.recalled).map((r) => ({ code: r.code, batchNo: r.batch_no }))[0];
    codes = mine.filter((r) => !r.recalled).map((r) => ({ code: r.code, batchNo: r.batch_no, harvestedOn: r.harvested_on }));
    if (codes.length < 2) {
      // A second printable code: the trace code of a batch without one (made as the console makes it).
      const batch = (await t.db.query<{ id: number }>(`SELECT h.id FROM harvests h WHERE h.farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场') AND h.recalled_at IS NULL AND h.safety_override_reason IS NULL AND NOT EXISTS (SELECT 1 FROM trace_codes c WHERE c.harvest_id = h.id) ORDER BY h.id LIMIT 1`)).rows[0];
      const made = await call(t, farm, 'POST', '/api/trackInfoManage/codes', { harvestId: batch.id });
      expect(made.status).toBe(200);
      const r = (await t.db.query<{ batch_no: string; harvested_on: string }>('SELECT batch_no, harvested_on::text FROM harvests WHERE id = $1', [batch.id])).rows[0];
      codes.push({ code: made.data.code, batchNo: r.batch_no, harvestedOn: r.harvested_on });
    }
    otherFarmCode = rows.find((r) => r.farm !== '禾丰生态农场' && !r.recalled)!.code;
    expect(recalled, 'the seed recalls a batch of 禾丰生态农场 that has a trace code').toBeDefined();
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the HTML sheet: A4 print CSS, every label with the 合格证 fields, each QR of PUBLIC_BASE_URL/t/<code>', async () => {
    const [a, b] = codes;
    const made = await ticket({ codes: [a.code, b.code], copies: 3 });
    expect(made.status, made.message).toBe(200);
    expect(made.data).toMatchObject({ labels: 6, pages: 2 });
    expect(made.data.html).toMatch(/^\/api\/trackInfoManage\/labelSheet\?t=/);
    // Opened in a new tab: no Authorization header, the ticket is the authority.
    const page = await get(made.data.html, { 'accept-language': 'zh' });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    const html = page.body;
    expect(html).toContain('@page{size:A4 portrait;margin:0}');
    expect(html).toMatch(/\.sheet\{[^}]*break-after:page/);
    expect(html).toMatch(/@media print\{[^@]*\.bar\{display:none\}/);
    expect(html).not.toContain('<script');
    expect(html.match(/<section class="sheet">/g)).toHaveLength(2);
    for (const c of [a, b]) {
      expect(html.match(new RegExp(`data-code="${c.code}"`, 'g')), c.code).toHaveLength(3);
      expect(html).toContain(c.batchNo);
      expect(html).toContain(c.harvestedOn);
      // The SVG is the one qrcode makes of the configured address, and nothing else.
      const svg = await QRCode.toString(traceUrl(BASE, c.code), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      expect(html.split(svg).length - 1, c.code).toBe(3);
    }
    expect(html).toContain('食用农产品合格证');
    expect(html).toContain('禾丰生态农场');
    expect(html).toContain('我承诺对生产销售的食用农产品：✓ 不使用禁用农药兽药、停用兽药和非法添加物　✓ 常规农药兽药残留不超标　✓ 对承诺的真实性负责');
    // The farm's address and phone, which a 合格证 carries (the public page does not).
    const org = (await t.db.query<{ address: string | null; phone: string | null }>(`SELECT address, phone FROM organisations WHERE name = '禾丰生态农场'`)).rows[0];
    if (org.address) expect(html).toContain(org.address);
    if (org.phone) expect(html).toContain(org.phone);
    // The language the console asked in, whatever the new tab's browser says.
    expect((await get(made.data.html, { 'accept-language': 'en' })).body).toContain('我承诺对生产销售的食用农产品');
    const inEnglish = await ticket({ code: a.code, copies: 1 }, farm, 'en');
    const en = (await get(inEnglish.data.html, { 'accept-language': 'zh' })).body;
    expect(en).toContain('I promise that the edible farm products I produce and sell');
    expect(en).toContain('Harvested on');
    const inSpanish = await ticket({ code: a.code, copies: 1 }, farm, 'es');
    const es = (await get(inSpanish.data.html, { cookie: 'language=zh' })).body;
    expect(es).toContain('Me comprometo a que los productos agrícolas comestibles');
  });

  it('the PDF: every code as text, the 合格证 text in the embedded font, each QR image decodes to PUBLIC_BASE_URL/t/<code>', async () => {
    const [a, b] = codes;
    const made = await ticket({ codes: [a.code, b.code] });
    expect(made.status, made.message).toBe(200);
    expect(made.data).toMatchObject({ labels: 2 * LABELS_PER_PAGE, pages: 2 });
    const res = await get(made.data.pdf);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="labels-PC\d{8}-\d{6}-2\.pdf"$/);
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.pages).toHaveLength(2);
    for (const [i, c] of [a, b].entries()) {
      const p = pdf.pages[i];
      expect(p.width).toBeCloseTo(595.28, 0);
      expect(p.height).toBeCloseTo(841.89, 0);
      // Ten labels a page, each naming its code; the text is extractable (the font carries its Unicode map).
      expect(p.text.split(c.code).length - 1, p.text).toBe(LABELS_PER_PAGE);
      expect(p.text).toContain(c.batchNo);
      expect(p.text).toContain('食用农产品合格证');
      expect(p.text).toContain('禾丰生态农场');
      expect(p.text.replace(/\s+/g, '')).toContain('不使用禁用农药兽药、停用兽药和非法添加物');
      expect(p.images).toHaveLength(LABELS_PER_PAGE);
      for (const img of p.images) {
        const found = jsQR(img.rgba, img.width, img.height);
        expect(found?.data, `a QR on page ${i + 1}`).toBe(`${BASE}/t/${c.code}`);
      }
    }
    // Spanish: the accents and the check marks are in the font too.
    const one = await ticket({ code: a.code, copies: 1 }, farm, 'es');
    const es = await readPdf((await get(one.data.pdf)).rawPayload);
    expect(es.pages[0].text.replace(/\s+/g, ' ')).toContain('Cosechado el');
    expect(es.pages[0].text).toContain('✓');
  });

  it('a Host header never changes a QR: the same address and the same image bytes from any Host or X-Forwarded-Host', async () => {
    const [a] = codes;
    const forged = { host: 'evil.example:8443', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
    const plain = await ticket({ code: a.code, copies: 1 });
    const spoofed = await ticket({ code: a.code, copies: 1 }, farm, 'zh', forged);
    expect(spoofed.data.html).not.toContain('evil');
    const html1 = (await get(plain.data.html)).body;
    const html2 = (await get(spoofed.data.html, forged)).body;
    expect(html2).not.toContain('evil.example');
    const svg = await QRCode.toString(traceUrl(BASE, a.code), { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    expect(html1).toContain(svg);
    expect(html2).toContain(svg);
    const pdf = await readPdf((await get(spoofed.data.pdf, forged)).rawPayload);
    expect(pdf.pages[0].images).toHaveLength(1);
    const img = pdf.pages[0].images[0];
    expect(jsQR(img.rgba, img.width, img.height)?.data).toBe(`${BASE}/t/${a.code}`);
    // The image embedded is exactly the PNG made from the configured address.
    const png = qrPng(traceUrl(BASE, a.code));
    expect(png.readUInt32BE(16)).toBe(img.width);
  });

  it('refuses others: without the export code or the menu, another farm’s code, a recalled batch, bad input', async () => {
    const [a] = codes;
    const config = `Bearer ${await t.login('config')}`; // every menu, no element code
    const device = `Bearer ${await t.login('device')}`; // no trace menu
    const farm2 = `Bearer ${await t.login('farm2')}`;
    expect((await ticket({ code: a.code }, config)).status).toBe(40301);
    expect((await ticket({ code: a.code }, device)).status).toBe(40301);
    expect((await t.app.inject({ method: 'POST', url: '/api/trackInfoManage/labelSheets', payload: { code: a.code } })).json().status).toBe(40101);
    // Another farm's code answers as missing, alone or among the caller's own.
    expect((await ticket({ code: a.code }, farm2)).status).toBe(40401);
    expect((await ticket({ codes: [a.code, otherFarmCode] })).status).toBe(40401);
    const rec = await ticket({ codes: [a.code, recalled.code] });
    expect(rec.status).toBe(40001);
    expect(rec.message).toContain(`批次 ${recalled.batchNo} 已召回，不能再打印合格证`);
    const recEn = await ticket({ code: recalled.code }, farm, 'en');
    expect(recEn.message).toContain(`Batch ${recalled.batchNo} has been recalled; no certificate can be printed for it`);
    expect((await ticket({})).status).toBe(40001);
    expect((await ticket({ code: 'abc' })).status).toBe(40001);
    expect((await ticket({ code: a.code, copies: 0 })).status).toBe(40001);
    const many = await ticket({ codes: codes.map((c) => c.code), copies: MAX_LABELS });
    expect(many.status).toBe(40001);
    expect(many.message).toContain(`一次最多打印 ${MAX_LABELS} 张标签`);
  });

  it('a batch harvested inside a safety interval gets no certificate until a passing test of the batch after its harvest', async () => {
    // The seed's batch harvested inside 代森锰锌's interval (with an override) and not recalled.
    const flagged = (
      await t.db.query<{ id: number; batch_no: string; harvested_on: string; farm_id: number }>(
        `SELECT h.id, h.batch_no, h.harvested_on::text, h.farm_id FROM harvests h
          WHERE h.farm_id = (SELECT id FROM organisations WHERE name = '禾丰生态农场') AND h.safety_override_reason IS NOT NULL AND h.recalled_at IS NULL ORDER BY h.id LIMIT 1`,
      )
    ).rows[0];
    expect((await call(t, farm, 'GET', `/api/farmHarvest/harvests/${flagged.id}`)).data.safety).toBe('inInterval');
    // Its trace code, as one made before any release gate (inserted: the console may refuse to make it).
    const code = 'LABELTEST234';
    await t.db.query(`INSERT INTO trace_codes(code, farm_id, harvest_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [code, flagged.farm_id, flagged.id]);
    const refused = await ticket({ code });
    expect(refused.status).toBe(40001);
    expect(refused.message).toContain(`批次 ${flagged.batch_no} 是在农药安全间隔期内采收的`);
    expect((await ticket({ code }, farm, 'en')).message).toContain(`Batch ${flagged.batch_no} was harvested inside a pesticide’s safety interval`);
    const day = (offset: number) => new Date(Date.parse(`${flagged.harvested_on}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const test = (testedOn: string, conclusion: string) =>
      call(t, farm, 'POST', '/api/qualityandSafety/records', { kind: 'residueTest', title: '农残检测（标签测试）', harvestId: flagged.id, testedOn, conclusion });
    // A test sampled before the harvest, or a failing one after it, does not release the batch.
    expect((await test(day(-1), 'pass')).status).toBe(200);
    expect((await test(day(2), 'fail')).status).toBe(200);
    expect((await ticket({ code })).status).toBe(40001);
    // Its own passing test after the harvest does.
    expect((await test(day(3), 'pass')).status).toBe(200);
    const made = await ticket({ code, copies: 1 });
    expect(made.status, made.message).toBe(200);
    expect((await get(made.data.html)).body).toContain(flagged.batch_no);
  });

  it('a ticket is refused once forged, expired, or its session ended', async () => {
    const [a] = codes;
    const sentence = '这个打印链接已过期或无效';
    const raw = await t.login('farm');
    const own = `Bearer ${raw}`;
    const made = await ticket({ code: a.code, copies: 1 }, own);
    expect((await get(made.data.html)).statusCode).toBe(200);
    // Forged: another code in the body under the old signature.
    const [body, sig] = made.data.ticket.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const tampered = `${Buffer.from(JSON.stringify({ ...payload, c: [otherFarmCode] })).toString('base64url')}.${sig}`;
    const forgedPage = await get(`/api/trackInfoManage/labelSheet?t=${encodeURIComponent(tampered)}`);
    expect(forgedPage.statusCode).toBe(403);
    expect(forgedPage.body).toContain(sentence);
    expect(forgedPage.body).not.toContain(otherFarmCode);
    expect((await get('/api/trackInfoManage/labelSheet')).statusCode).toBe(403);
    // Expired: ten minutes later.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (TICKET_TTL_SECONDS + 5) * 1000);
    const late = await get(made.data.pdf, { 'accept-language': 'en' });
    expect(late.statusCode).toBe(403);
    // An expired ticket is not read: the page speaks the browser's language.
    expect(late.body).toContain('This print link has expired or is not valid');
    vi.useRealTimers();
    // The session it was made in ends: the ticket ends with it.
    const again = await ticket({ code: a.code, copies: 1 }, own);
    expect((await get(again.data.html)).statusCode).toBe(200);
    expect((await call(t, own, 'POST', `/api/auth/jwt/invalid?token=${encodeURIComponent(raw)}`)).status).toBe(200);
    const afterLogout = await get(again.data.html);
    expect(afterLogout.statusCode).toBe(403);
    expect(afterLogout.body).toContain(sentence);
  });

  it('without PUBLIC_BASE_URL: refused with a sentence in the user’s language, the ticket’s pages too', async () => {
    const [a] = codes;
    const made = await ticket({ code: a.code, copies: 1 });
    const saved = t.config.publicBaseUrl;
    t.config.publicBaseUrl = undefined;
    try {
      const zh = await ticket({ code: a.code });
      expect(zh.status).toBe(40001);
      expect(zh.message).toContain('还不能生成二维码：服务器没有配置公开网址（PUBLIC_BASE_URL');
      expect((await ticket({ code: a.code }, farm, 'en')).message).toContain('The QR code cannot be made yet: the server has no public address configured (PUBLIC_BASE_URL');
      expect((await ticket({ code: a.code }, farm, 'es')).message).toContain('Todavía no se puede generar el código QR');
      for (const url of [made.data.html, made.data.pdf]) {
        const res = await get(url, { 'accept-language': 'en' });
        expect(res.statusCode).toBe(503);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.body).toContain('PUBLIC_BASE_URL');
        expect(res.body).not.toContain('/t/');
      }
    } finally {
      t.config.publicBaseUrl = saved;
    }
  });
});
