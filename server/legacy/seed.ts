import type { Queryable } from '../db/database.ts';

/**
 * Demo notices and business for the demo accounts (server/seed/seed.ts creates those):
 * admin has more than 10 unread notices (the badge caps at 10), farm and farm2 have
 * authorisation requests to answer, tech and agent have business in several states, the
 * regional center and the configurer have a notice of their own.
 * Runs once: does nothing when business rows exist already.
 */
export async function seedAccountsExtras(db: Queryable): Promise<void> {
  const existing = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM business');
  if (existing.rows[0].n > 0) return;
  const users = new Map(
    (await db.query<{ id: number; username: string; org_id: number | null }>('SELECT id, username, org_id FROM users')).rows.map((u) => [u.username, u]),
  );
  const user = (name: string) => {
    const u = users.get(name);
    if (!u) throw new Error(`seedAccountsExtras: demo account ${name} is missing`);
    return u;
  };
  const farm = user('farm');
  const farm2 = user('farm2');
  const tech = user('tech');
  const agent = user('agent');
  if (farm.org_id == null || farm2.org_id == null) throw new Error('seedAccountsExtras: farm and farm2 need their farms');

  const addBusiness = async (farmId: number, techId: number | null, agentId: number | null, type: string, status: number, content: string, hoursAgo: number) =>
    (
      await db.query<{ id: number }>(
        `INSERT INTO business(farm_id, techman_id, agent_id, type, status, content, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, now() - make_interval(hours => $7), now() - make_interval(hours => $7)) RETURNING id`,
        [farmId, techId, agentId, type, status, content, hoursAgo],
      )
    ).rows[0].id;

  const addNotice = async (
    n: { title: string; content: string; kind?: string; sender?: number | null; business?: number | null; hoursAgo: number },
    recipients: { id: number; read?: boolean; responded?: boolean }[],
  ) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO notices(title, content, kind, sender_id, business_id, created_at)
       VALUES ($1, $2, $3, $4, $5, now() - make_interval(hours => $6)) RETURNING id`,
      [n.title, n.content, n.kind ?? 'message', n.sender ?? null, n.business ?? null, n.hoursAgo],
    );
    for (const r of recipients) {
      await db.query(
        `INSERT INTO notice_receipts(notice_id, user_id, read_at, responded_at)
         VALUES ($1, $2, CASE WHEN $3::boolean THEN now() - make_interval(hours => $5) ELSE NULL END,
                 CASE WHEN $4::boolean THEN now() - make_interval(hours => $5) ELSE NULL END)`,
        [rows[0].id, r.id, r.read === true, r.responded === true, Math.max(0, n.hoursAgo - 1)],
      );
    }
  };

  // Business between the bloc's technician, the customer agent and the two farms.
  const soil = await addBusiness(farm.org_id, tech.id, agent.id, 'soilTest', 0, '春播前土壤养分检测（3 个地块）', 6);
  const fert = await addBusiness(farm.org_id, tech.id, agent.id, 'fertilization', 1, '玉米追肥方案制定与现场指导', 72);
  const protect = await addBusiness(farm2.org_id, tech.id, null, 'plantProtection', 0, '大豆田间病虫害巡检', 12);
  await addBusiness(farm2.org_id, null, agent.id, 'consultation', 2, '有机肥采购咨询', 120);
  await addBusiness(farm.org_id, tech.id, null, 'dataAccess', 3, '查看温室环境监测数据（已完成）', 240);

  await addNotice({ title: '服务授权请求：土壤检测', content: '技术员周杰申请为禾丰生态农场开展春播前土壤养分检测，请确认是否授权。', kind: 'authRequest', sender: tech.id, business: soil, hoursAgo: 6 }, [
    { id: farm.id },
  ]);
  await addNotice({ title: '服务授权请求：追肥指导', content: '技术员周杰与客户经理孙磊申请为农场制定玉米追肥方案。', kind: 'authRequest', sender: agent.id, business: fert, hoursAgo: 72 }, [
    { id: farm.id, read: true, responded: true },
  ]);
  await addNotice({ title: 'notices.authGrantedTitle', content: '禾丰生态农场: 玉米追肥方案制定与现场指导', kind: 'authResult', sender: farm.id, business: fert, hoursAgo: 70 }, [
    { id: tech.id },
    { id: agent.id, read: true },
  ]);
  await addNotice({ title: '服务授权请求：病虫害巡检', content: '技术员周杰申请对嫩江源合作农场大豆田开展病虫害巡检。', kind: 'authRequest', sender: tech.id, business: protect, hoursAgo: 12 }, [
    { id: farm2.id },
  ]);

  // Plain messages; the administrator's unread ones outnumber the badge's cap of 10.
  const admin = user('admin');
  for (let i = 1; i <= 12; i++) {
    await addNotice({ title: `平台待办提醒 ${i}`, content: `第 ${i} 条注册申请或内容待审核，请及时处理。`, hoursAgo: i * 3 }, [{ id: admin.id }]);
  }
  for (let i = 1; i <= 3; i++) {
    await addNotice({ title: `系统维护通知 ${i}`, content: '平台将于周日凌晨 2:00–4:00 进行例行维护。', hoursAgo: 100 + i }, [{ id: admin.id, read: true }]);
  }
  const everyone = ['farm', 'farm2', 'provider', 'device', 'mobile', 'factory', 'center', 'nursery'].filter((u) => users.has(u)).map((u) => user(u));
  await addNotice({ title: '春耕生产技术指导意见', content: '请各农场根据墒情适时播种，注意防范倒春寒。', sender: admin.id, hoursAgo: 48 }, everyone.map((u, i) => ({ id: u.id, read: i % 2 === 0 })));
  // The regional center's and the configurer's own, unread.
  const own = (name: string) => (users.has(name) ? [{ id: user(name).id }] : []);
  await addNotice({ title: '冬季设施蔬菜防寒减灾工作部署', content: '寒潮将至，请督促区域内农场、育苗基地检查温室保温和加温设备，按周报送苗情、灾情。', sender: admin.id, hoursAgo: 20 }, own('center'));
  await addNotice({ title: '页面配置发布规范', content: '发布页面前，请在预览中分别以农场和厂家账号查看一次，并写明修改说明；回滚同样需要说明。', sender: admin.id, hoursAgo: 10 }, own('config'));
  await addNotice({ title: '农资购买提醒', content: '复合肥、种子团购活动本周五截止。', sender: agent.id, hoursAgo: 30 }, [{ id: farm.id }, { id: farm2.id, read: true }]);
}
