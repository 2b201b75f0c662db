import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

describe.each(engines())('notices (spec 7.3) on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  const unread = async (who: string) => {
    const r = await f.as(who, 'GET', `/api/coverfield/notice/notReadNumber?userId=${await f.userId(who)}`);
    expect(r.http).toBe(200);
    expect(r.status).toBe(200);
    expect(typeof r.data).toBe('number');
    return r.data as number;
  };

  it('counts unread notices as a number; the administrator has more than the badge’s 10', async () => {
    expect(await unread('admin')).toBe(12);
    // Two seeded notices and the two of the seeded recalls (docs/harvest-sales-trace.md, the seed story).
    expect(await unread('farm')).toBe(4);
    expect(await unread('agent')).toBe(0);
    const noParam = await f.as('admin', 'GET', '/api/coverfield/notice/notReadNumber');
    expect(noParam.data).toBe(12);
  });

  it('pages received notices newest first in the page shape, with read flags', async () => {
    const r = await f.as('admin', 'GET', `/api/coverfield/notice/page/receiveNotice?pageIndex=1&pageSize=5&userId=${await f.userId('admin')}`);
    expect(r.status).toBe(200);
    expect(r.data).toMatchObject({ total: 15, pageIndex: 1, pageSize: 5 });
    expect(r.data.rows).toHaveLength(5);
    const times = r.data.rows.map((n: { createdAt: string }) => Date.parse(n.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(r.data.rows[0]).toMatchObject({ id: expect.any(Number), title: expect.any(String), read: false, kind: 'message' });
    const last = await f.as('admin', 'GET', '/api/coverfield/notice/page/receiveNotice?pageIndex=4&pageSize=5');
    expect(last.data.rows).toEqual([]);
    const readOnes = await f.as('admin', 'GET', '/api/coverfield/notice/page/receiveNotice?read=1');
    expect(readOnes.data.total).toBe(3);
    expect(readOnes.data.rows.every((n: { read: boolean }) => n.read)).toBe(true);
  });

  it('shows authorisation requests that await an answer', async () => {
    const r = await f.as('farm', 'GET', '/api/coverfield/notice/page/receiveNotice?pageSize=50');
    const pending = r.data.rows.filter((n: { needsResponse: boolean }) => n.needsResponse);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ kind: 'authRequest', businessStatus: 0, senderName: expect.any(String) });
  });

  it('translates system notices into the reader’s language', async () => {
    const r = await f.as('tech', 'GET', '/api/coverfield/notice/page/receiveNotice');
    const result = r.data.rows.find((n: { kind: string }) => n.kind === 'authResult');
    expect(result.title).toBe('The farm granted the authorisation');
  });

  it('gives nothing about other people: an empty page and a count of 0', async () => {
    const farmId = await f.userId('farm');
    const page = await f.as('farm2', 'GET', `/api/coverfield/notice/page/receiveNotice?userId=${farmId}`);
    expect(page).toMatchObject({ status: 200, data: { rows: [], total: 0 } });
    const count = await f.as('farm2', 'GET', `/api/coverfield/notice/notReadNumber?userId=${farmId}`);
    expect(count).toMatchObject({ status: 200, data: 0 });
    const asAdmin = await f.as('admin', 'GET', `/api/coverfield/notice/notReadNumber?userId=${farmId}`);
    expect(asAdmin.data).toBe(0);
  });

  it('marks a notice read once: the unread count drops by one, a second call changes nothing', async () => {
    const before = await unread('admin');
    const list = await f.as('admin', 'GET', '/api/coverfield/notice/page/receiveNotice?read=0&pageSize=1');
    const id = list.data.rows[0].id;
    const r = await f.as('admin', 'GET', `/api/coverfield/notice/setSelfNoticeRead?id=${id}`);
    expect(r.status).toBe(200);
    expect(r.data.notice).toMatchObject({ id, read: true, readAt: expect.any(String) });
    expect(r.data.notReadNumber).toBe(before - 1);
    expect(await unread('admin')).toBe(before - 1);
    expect(await f.auditCount('notice.read', id)).toBe(1);

    const again = await f.as('admin', 'GET', `/api/coverfield/notice/setSelfNoticeRead?id=${id}`);
    expect(again.data.notice.readAt).toBe(r.data.notice.readAt);
    expect(await unread('admin')).toBe(before - 1);
    expect(await f.auditCount('notice.read', id)).toBe(1);
  });

  it('refuses to mark someone else’s notice: it answers as a missing one', async () => {
    const list = await f.as('farm', 'GET', '/api/coverfield/notice/page/receiveNotice?read=0&pageSize=1');
    const id = list.data.rows[0].id;
    const before = await f.snapshot();
    const other = await f.as('farm2', 'GET', `/api/coverfield/notice/setSelfNoticeRead?id=${id}`);
    const missing = await f.as('farm2', 'GET', '/api/coverfield/notice/setSelfNoticeRead?id=999999');
    expect([other.http, other.status, other.message]).toEqual([missing.http, missing.status, missing.message]);
    expect(other.status).toBe(40401);
    expect(await f.snapshot()).toBe(before);
  });

  it('answers bad parameters with 40001', async () => {
    for (const url of [
      '/api/coverfield/notice/setSelfNoticeRead',
      '/api/coverfield/notice/setSelfNoticeRead?id=abc',
      '/api/coverfield/notice/setSelfNoticeRead?id=1%3BDELETE%20FROM%20notices',
      '/api/coverfield/notice/notReadNumber?userId=-1',
      '/api/coverfield/notice/notReadNumber?userId=%3Cscript%3E',
      '/api/coverfield/notice/page/receiveNotice?pageSize=501',
      '/api/coverfield/notice/page/receiveNotice?read=2',
      '/api/coverfield/notice/page/receiveNotice?userId=99999999999',
    ]) {
      const r = await f.as('mobile', 'GET', url);
      expect(r.status, url).toBe(40001);
    }
    const anonymous = await f.app.inject({ method: 'GET', url: '/api/coverfield/notice/notReadNumber' });
    expect(anonymous.json().status).toBe(40101);
  });
});
