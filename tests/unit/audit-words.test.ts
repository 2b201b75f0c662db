/**
 * Issue 29, item 4: the operation log in words. The reported raw codes (`compound`,
 * `shipped`/`received`, `{"open":true,"minutes":20}`, `airTemperature`, `materialId: 371`)
 * read as words in zh, en and es, through the one catalogue (server/audit/words.ts) and the
 * reader (server/audit/readable.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderSource } from '../../runtime/schema/folder-source.ts';
import type { ResourceDocument } from '../../runtime/schema/resource.ts';
import { changeLines, changeText, withReferenceNames } from '../../server/audit/readable.ts';
import { auditCatalogue } from '../../server/audit/words.ts';

const ROOT = join(import.meta.dirname, '../..');

async function catalogue() {
  const docs: ResourceDocument[] = [];
  for (const d of await folderSource(ROOT).documents()) if (d.type === 'resource') docs.push(JSON.parse(d.content as string) as ResourceDocument);
  return auditCatalogue(docs);
}

const RAW = /compound|shipped|received|airTemperature|materialId|[{}]|"open"/;

describe('the operation log in words (issue 29)', () => {
  it('a scenario’s trigger: reading kind, comparison and trigger type in words', async () => {
    const cat = await catalogue();
    const changes = { name: '一号温室高温通风', trigger: { type: 'threshold', place: '一号温室', kind: 'airTemperature', op: 'above', value: 30 } };
    const zh = changeText(changeLines(cat, 'deviceScenarios', changes, 'zh'));
    expect(zh).toContain('监测项: 空气温度');
    expect(zh).toContain('比较: 高于');
    expect(zh).toContain('触发方式: 阈值触发');
    expect(zh).not.toMatch(RAW);
    expect(changeText(changeLines(cat, 'deviceScenarios', changes, 'en'))).toContain('Reading: Air temperature');
    expect(changeText(changeLines(cat, 'deviceScenarios', changes, 'es'))).toContain('Lectura: Temperatura del aire');
    expect(cat.action('devices.scenario.create', 'zh')).toBe('新增联动场景');
  });

  it('a device command’s settings, not {"open":true,"minutes":20}', async () => {
    const cat = await catalogue();
    const changes = { commandId: 'c-1', device: 'GH1-DRIP', params: { open: true, minutes: 20 } };
    const zh = changeText(changeLines(cat, 'devices', changes, 'zh'));
    expect(zh).toContain('参数: 开启: 是; 时长（分钟）: 20');
    expect(zh).not.toMatch(RAW);
    expect(changeText(changeLines(cat, 'devices', changes, 'en'))).toContain('Settings: Open: yes; Minutes: 20');
    expect(cat.action('devices.command.valve', 'es')).toBe('Control de dispositivo: válvula');
  });

  it('a purchase order’s states in words', async () => {
    const cat = await catalogue();
    const lines = changeLines(cat, 'purchaseOrders', { number: 'PO-1', status: { from: 'shipped', to: 'received' } }, 'zh');
    expect(lines.find((l) => l.field === 'status')).toMatchObject({ title: '状态', from: '已发货', to: '已收货' });
    expect(changeLines(cat, 'purchaseOrders', { status: { from: 'shipped', to: 'received' } }, 'en')[0]).toMatchObject({ from: 'Shipped', to: 'Received' });
    expect(cat.action('purchaseOrders.ship', 'zh')).toBe('厂家发货');
  });

  it('a fertilizer product’s type in words', async () => {
    const cat = await catalogue();
    const lines = changeLines(cat, 'fertilizerProducts', { version: { from: null, to: 1 }, fields: { productType: { from: null, to: 'compound' } } }, 'zh');
    expect(lines[0]).toMatchObject({ title: '类型', to: '复合肥' });
  });

  it('a stock line’s material by its name, fields by their titles', async () => {
    const cat = await catalogue();
    const changes = { number: 'RK-7', direction: 'in', storeId: 12, lines: [{ materialId: 371, batch: 'B1', quantity: '5.000' }] };
    const named = withReferenceNames(changes, cat, 'materialMovements', new Map([['farmMaterials:371', '吡虫啉'], ['farmStores:12', '农药专用库']]));
    const zh = changeText(changeLines(cat, 'materialMovements', named, 'zh'));
    expect(zh).toContain('仓库: 农药专用库');
    expect(zh).toContain('农资: 吡虫啉');
    expect(zh).toContain('方向: 入库');
    expect(zh).not.toMatch(RAW);
    // A change of a reference (from / to) reads by name too.
    const moved = withReferenceNames({ storeId: { from: 12, to: 13 } }, cat, 'materialMovements', new Map([['farmStores:12', '一号库'], ['farmStores:13', '二号库']]));
    expect(moved).toEqual({ storeId: { from: '一号库', to: '二号库' } });
  });
});
