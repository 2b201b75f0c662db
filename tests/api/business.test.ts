import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { accountsFixture, type AccountsFixture } from './accounts-support.ts';

describe.each(engines())('coverfield business (spec 7.3) on $name', (engine) => {
  let f: AccountsFixture;
  beforeAll(async () => {
    f = await accountsFixture(engine);
  });
  afterAll(async () => {
    await f?.close();
  });

  describe('the customer agent’s own customers and business (issue 29 item 7)', () => {
    it('lists the farms the agent serves with contact and open business, and its business by farm, status and type', async () => {
      const agent = await f.userId('agent');
      const customers = await f.as('agent', 'GET', '/api/coverfield/business/customers');
      expect(customers.status).toBe(200);
      expect(customers.data.total).toBe(2);
      const byName = Object.fromEntries(customers.data.rows.map((c: { farmName: string }) => [c.farmName, c]));
      expect(byName['禾丰生态农场']).toMatchObject({ openBusiness: 2, totalBusiness: 2, farmId: expect.any(Number) });
      expect(byName['嫩江源合作农场']).toMatchObject({ openBusiness: 0, totalBusiness: 1 });
      const mine = await f.as('agent', 'GET', '/api/coverfield/business/mine');
      expect(mine.data.total).toBe(3);
      expect(mine.data.rows.every((b: { agentId: number }) => b.agentId === agent)).toBe(true);
      const ofFarm = await f.as('agent', 'GET', `/api/coverfield/business/mine?farmId=${byName['禾丰生态农场'].farmId}`);
      expect(ofFarm.data.rows.map((b: { type: string }) => b.type).sort()).toEqual(['fertilization', 'soilTest']);
      expect((await f.as('agent', 'GET', '/api/coverfield/business/mine?status=2')).data.rows.map((b: { type: string }) => b.type)).toEqual(['consultation']);
      expect((await f.as('agent', 'GET', '/api/coverfield/business/customers?keyword=嫩江')).data.total).toBe(1);
    });

    it('shows the administrator none of the agent’s business as its own, and refuses accounts without the screens', async () => {
      expect((await f.as('admin', 'GET', '/api/coverfield/business/mine')).data.total).toBe(0);
      expect((await f.as('farm', 'GET', '/api/coverfield/business/mine')).status).toBe(40301);
      expect((await f.as('tech', 'GET', '/api/coverfield/business/customers')).status).toBe(40301);
    });
  });

  describe('pages by technician and by agent', () => {
    it('gives a technician their own business newest first in the page shape', async () => {
      const tech = await f.userId('tech');
      const r = await f.as('tech', 'GET', `/api/coverfield/business/pageByIds/bytechmanId?pageIndex=1&pageSize=2&techmanId=${tech}`);
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ total: 4, pageIndex: 1, pageSize: 2 });
      expect(r.data.rows).toHaveLength(2);
      expect(r.data.rows[0]).toMatchObject({ techmanId: tech, techmanName: expect.any(String), farmName: expect.any(String), status: 0, type: 'soilTest' });
      const page2 = await f.as('tech', 'GET', `/api/coverfield/business/pageByIds/bytechmanId?pageIndex=2&pageSize=2&techmanId=${tech}`);
      expect(page2.data.rows.map((b: { id: number }) => b.id)).not.toContain(r.data.rows[0].id);
    });

    it('filters by technician and agent together, and by status', async () => {
      const tech = await f.userId('tech');
      const agent = await f.userId('agent');
      const both = await f.as('agent', 'GET', `/api/coverfield/business/pageByIds?pageIndex=1&pageSize=20&agentId=${agent}&techmanId=${tech}`);
      expect(both.status).toBe(40301);
      const agentOnly = await f.as('agent', 'GET', `/api/coverfield/business/pageByIds?agentId=${agent}`);
      expect(agentOnly.data.total).toBe(3);
      const asAdmin = await f.as('admin', 'GET', `/api/coverfield/business/pageByIds?agentId=${agent}&techmanId=${tech}`);
      expect(asAdmin.data.total).toBe(2);
      const pending = await f.as('admin', 'GET', `/api/coverfield/business/pageByIds?techmanId=${tech}&status=0`);
      expect(pending.data.rows.every((b: { status: number }) => b.status === 0)).toBe(true);
      expect(pending.data.total).toBe(2);
      expect((await f.as('admin', 'GET', '/api/coverfield/business/pageByIds')).status).toBe(40001);
    });

    it('lets a provider read the business of a technician of its bloc, limited to its farms', async () => {
      const tech = await f.userId('tech');
      const r = await f.as('provider', 'GET', `/api/coverfield/business/pageByIds/bytechmanId?techmanId=${tech}`);
      expect(r.status).toBe(200);
      const blocFarms = [await f.orgOf('farm'), await f.orgOf('farm2')];
      expect(r.data.total).toBe(4);
      expect(r.data.rows.every((b: { farmId: number }) => blocFarms.includes(b.farmId))).toBe(true);
      const agentOutsideBloc = await f.as('provider', 'GET', `/api/coverfield/business/pageByIds?agentId=${await f.userId('agent')}`);
      expect(agentOutsideBloc.status).toBe(40301);
    });

    it('refuses other people’s business to technicians, agents, farms and mobile users alike', async () => {
      const tech = await f.userId('tech');
      const agent = await f.userId('agent');
      for (const [who, url] of [
        ['agent', `/api/coverfield/business/pageByIds/bytechmanId?techmanId=${tech}`],
        ['tech', `/api/coverfield/business/pageByIds?agentId=${agent}`],
        ['farm', `/api/coverfield/business/pageByIds/bytechmanId?techmanId=${tech}`],
        ['farm2', `/api/coverfield/business/pageByIds?agentId=${agent}`],
        ['mobile', `/api/coverfield/business/pageByIds/bytechmanId?techmanId=${tech}`],
      ] as const) {
        const r = await f.as(who, 'GET', url);
        expect(r.status, `${who} ${url}`).toBe(40301);
        expect(r.http).toBe(403);
      }
      const missing = await f.as('provider', 'GET', '/api/coverfield/business/pageByIds/bytechmanId?techmanId=999999');
      expect(missing.status).toBe(40301);
    });

    it('answers bad parameters with 40001', async () => {
      for (const q of ['', 'techmanId=abc', 'techmanId=1&pageSize=501', 'techmanId=1&pageIndex=0', 'techmanId=1&status=9', 'techmanId=1%20OR%201%3D1', 'techmanId=1&sort=x']) {
        const r = await f.as('admin', 'GET', `/api/coverfield/business/pageByIds/bytechmanId?${q}`);
        expect(r.status, q).toBe(40001);
      }
    });
  });

  describe('GET /api/coverfield/business/responseAuth', () => {
    const pendingRequest = async (who: string) => {
      const r = await f.as(who, 'GET', '/api/coverfield/notice/page/receiveNotice?pageSize=50');
      return r.data.rows.find((n: { needsResponse: boolean }) => n.needsResponse) as { id: number; businessId: number };
    };

    it('lets the farm grant a request: business authorised, requesters told, audited', async () => {
      const notice = await pendingRequest('farm');
      const techUnread = (await f.as('tech', 'GET', '/api/coverfield/notice/notReadNumber')).data;
      const r = await f.as('farm', 'GET', `/api/coverfield/business/responseAuth?noticeId=${notice.id}&status=1`);
      expect(r.status).toBe(200);
      expect(r.data).toMatchObject({ id: notice.businessId, status: 1 });
      expect((await f.as('tech', 'GET', '/api/coverfield/notice/notReadNumber')).data).toBe(techUnread + 1);
      expect(await f.auditCount('business.responseAuth', notice.businessId)).toBe(1);
      const after = await f.as('farm', 'GET', '/api/coverfield/notice/page/receiveNotice?pageSize=50');
      const answered = after.data.rows.find((n: { id: number }) => n.id === notice.id);
      expect(answered).toMatchObject({ read: true, needsResponse: false, businessStatus: 1 });

      const again = await f.as('farm', 'GET', `/api/coverfield/business/responseAuth?noticeId=${notice.id}&status=2`);
      expect(again.status).toBe(40001);
    });

    it('lets only the recipient answer, and only authorisation requests', async () => {
      const notice = await pendingRequest('farm2');
      const before = await f.snapshot();
      const byOther = await f.as('farm', 'GET', `/api/coverfield/business/responseAuth?noticeId=${notice.id}&status=1`);
      expect(byOther.status).toBe(40401);
      const byTech = await f.as('tech', 'GET', `/api/coverfield/business/responseAuth?noticeId=${notice.id}&status=1`);
      expect(byTech.status).toBe(40401);
      const plain = (await f.as('farm2', 'GET', '/api/coverfield/notice/page/receiveNotice?pageSize=50')).data.rows.find(
        (n: { kind: string }) => n.kind === 'message',
      );
      expect((await f.as('farm2', 'GET', `/api/coverfield/business/responseAuth?noticeId=${plain.id}&status=1`)).status).toBe(40001);
      for (const q of [`noticeId=${notice.id}`, `noticeId=${notice.id}&status=0`, `noticeId=${notice.id}&status=3`, 'status=1', `noticeId=x&status=1`]) {
        expect((await f.as('farm2', 'GET', `/api/coverfield/business/responseAuth?${q}`)).status, q).toBe(40001);
      }
      expect(await f.snapshot()).toBe(before);

      const refused = await f.as('farm2', 'GET', `/api/coverfield/business/responseAuth?noticeId=${notice.id}&status=2`);
      expect(refused.data.status).toBe(2);
    });
  });
});
