import type { Queryable } from '../db/database.ts';
import { hashPassword } from '../auth/password.ts';
import type { LocalizedText } from '../../runtime/protocol/texts.ts';

type Text = LocalizedText;
const T = (zh: string, en: string, es: string): Text => ({ zh, en, es });

/** The password of the demo registration requests (as the demo accounts': demo_2026). */
const DEMO_REGISTRATION_PASSWORD = 'demo_2026';

/**
 * Demo data of the administration screens: role categories (and the demo roles placed
 * in them), dictionaries, plots and planting groups of the two demo farms, articles
 * (published and drafts), app versions and registration requests waiting for review.
 * Runs inside the demo seed's transaction after the resource and account extras; each
 * part does nothing when its table or resource already holds rows.
 */
export async function seedAdminExtras(db: Queryable): Promise<void> {
  const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]?.id ?? null;
  const count = async (resource: string) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM resource_records WHERE resource = $1', [resource])).rows[0].n;
  const insert = async (resource: string, data: Record<string, unknown>, farm?: { id: number; bloc_id: number | null; user_id: number | null }) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, $2, $3, $4, $5, $5) RETURNING id`,
      [resource, farm?.id ?? null, farm?.bloc_id ?? null, JSON.stringify(data), farm ? farm.user_id : admin],
    );
    return Number(rows[0].id);
  };
  const idOf = async (resource: string, name: string) =>
    (await db.query<{ id: number }>(`SELECT id FROM resource_records WHERE resource = $1 AND data->>'name' = $2 ORDER BY id LIMIT 1`, [resource, name])).rows[0]?.id ?? null;

  if ((await count('roleCategories')) === 0) {
    const categories: [string, Text, number[], number, string[]][] = [
      ['platform', T('平台管理', 'Platform administration', 'Administración de la plataforma'), [], 100, ['platformAdmin']],
      ['farmStaff', T('农场人员', 'Farm staff', 'Personal de granja'), [0], 90, ['farmOperator', 'deviceManager', 'technician']],
      ['industry', T('产业机构', 'Industry organisations', 'Organizaciones del sector'), [1, 3, 4], 80, ['manufacturer', 'regionalCenter', 'seedlingBase']],
      ['services', T('社会化服务', 'Agricultural services', 'Servicios agrícolas'), [0], 70, ['serviceProvider', 'customerAgent']],
    ];
    for (const [code, name, orgTypes, position, roles] of categories) {
      await insert('roleCategories', { code, name, orgTypes, position, description: name.zh });
      await db.query('UPDATE roles SET category = $1 WHERE code = ANY($2::text[])', [code, roles]);
    }
  }

  if ((await count('dicts')) === 0) {
    const item = (value: string, label: Text, sort: number, color?: string) => ({ value, label, sort, enabled: true, ...(color ? { color } : {}) });
    await insert('dicts', {
      code: 'cropCategory', name: T('作物分类', 'Crop category', 'Categoría de cultivo'), status: 1, description: '作物知识库与种植组使用',
      items: [
        item('grain', T('粮食作物', 'Grain', 'Cereal'), 1, 'gold'),
        item('vegetable', T('蔬菜', 'Vegetable', 'Hortaliza'), 2, 'green'),
        item('fruit', T('水果', 'Fruit', 'Fruta'), 3, 'red'),
        item('oil', T('油料作物', 'Oil crop', 'Oleaginosa'), 4, 'orange'),
        item('cash', T('经济作物', 'Cash crop', 'Cultivo comercial'), 5, 'blue'),
        item('forage', T('饲料作物', 'Forage', 'Forraje'), 6, 'lime'),
        item('herb', T('中药材', 'Medicinal herb', 'Planta medicinal'), 7, 'purple'),
      ],
    });
    await insert('dicts', {
      code: 'unit', name: T('计量单位', 'Unit', 'Unidad'), status: 1, description: '农资、仓储与采收的计量单位',
      items: [
        item('kg', T('公斤', 'Kilogram', 'Kilogramo'), 1),
        item('t', T('吨', 'Tonne', 'Tonelada'), 2),
        item('jin', T('斤', 'Jin (500 g)', 'Jin (500 g)'), 3),
        item('bag', T('袋', 'Bag', 'Saco'), 4),
        item('bottle', T('瓶', 'Bottle', 'Botella'), 5),
        item('box', T('箱', 'Box', 'Caja'), 6),
        item('L', T('升', 'Litre', 'Litro'), 7),
        item('mu', T('亩', 'Mu (666.7 m²)', 'Mu (666,7 m²)'), 8),
        { ...item('piece', T('个', 'Piece', 'Unidad'), 9), enabled: false },
      ],
    });
    await insert('dicts', {
      code: 'materialType', name: T('农资类型', 'Material type', 'Tipo de insumo'), status: 1, description: '农资清单与共享农资的品类',
      items: [
        item('fertilizer', T('肥料', 'Fertilizer', 'Fertilizante'), 1, 'green'),
        item('pesticide', T('农药', 'Pesticide', 'Plaguicida'), 2, 'red'),
        item('seed', T('种子', 'Seed', 'Semilla'), 3, 'gold'),
        item('seedling', T('种苗', 'Seedling', 'Plántula'), 4, 'lime'),
        item('equipment', T('农机设备', 'Equipment', 'Equipo'), 5, 'blue'),
        item('other', T('其他', 'Other', 'Otro'), 6, 'default'),
      ],
    });
    await insert('dicts', {
      code: 'irrigationMethod', name: T('灌溉方式', 'Irrigation method', 'Método de riego'), status: 1, description: '地块档案使用',
      items: [
        item('flood', T('漫灌', 'Flood', 'Inundación'), 1),
        item('drip', T('滴灌', 'Drip', 'Goteo'), 2),
        item('sprinkler', T('喷灌', 'Sprinkler', 'Aspersión'), 3),
        item('rainfed', T('雨养', 'Rain-fed', 'Secano'), 4),
      ],
    });
    await insert('dicts', {
      code: 'harvestGrade', name: T('采收等级', 'Harvest grade', 'Calidad de cosecha'), status: 0, description: '尚未启用',
      items: [item('first', T('一等', 'First grade', 'Primera'), 1), item('second', T('二等', 'Second grade', 'Segunda'), 2)],
    });
  }

  const farms = (
    await db.query<{ id: number; bloc_id: number | null; user_id: number | null }>(
      `SELECT o.id, o.bloc_id, (SELECT min(u.id) FROM users u WHERE u.org_id = o.id) AS user_id FROM organisations o WHERE o.type = 0 ORDER BY o.id LIMIT 2`,
    )
  ).rows;
  const [farm1, farm2] = farms;
  const rice = await idOf('crops', '水稻');
  const maize = await idOf('crops', '玉米');
  const soybean = await idOf('crops', '大豆');
  const tomato = await idOf('crops', '番茄');

  if ((await count('farmFields')) === 0 && farm1 && farm2) {
    const f1 = await insert('farmFields', {
      code: 'HF-01', name: '东岗水田一号', areaMu: 120, landType: 'paddy', soilType: 'meadowSoil', irrigation: 'flood',
      ...(rice ? { cropId: rice } : {}), location: '双城区农丰镇东岗村南', longitude: 126.312, latitude: 45.383, status: 1, remark: '井灌，渠系完好',
    }, farm1);
    const f2 = await insert('farmFields', {
      code: 'HF-02', name: '西坡旱田', areaMu: 260, landType: 'dryland', soilType: 'blackSoil', irrigation: 'rainfed',
      ...(maize ? { cropId: maize } : {}), location: '双城区农丰镇西坡', longitude: 126.296, latitude: 45.391, status: 1,
    }, farm1);
    const f3 = await insert('farmFields', {
      code: 'HF-G1', name: '一号日光温室', areaMu: 1.2, landType: 'greenhouse', soilType: 'sandyLoam', irrigation: 'drip',
      ...(tomato ? { cropId: tomato } : {}), location: '场部北侧', status: 1,
    }, farm1);
    await insert('farmFields', {
      code: 'HF-03', name: '北洼地', areaMu: 45, landType: 'dryland', soilType: 'salineAlkali', irrigation: 'rainfed', status: 0, remark: '轮作休耕，计划秋翻改良',
    }, farm1);
    const n1 = await insert('farmFields', {
      code: 'NJ-01', name: '嫩江沿岸大豆田', areaMu: 300, landType: 'dryland', soilType: 'chernozem', irrigation: 'sprinkler',
      ...(soybean ? { cropId: soybean } : {}), location: '富裕县嫩江路东', longitude: 124.47, latitude: 47.8, status: 1,
    }, farm2);

    if ((await count('plantGroups')) === 0) {
      const longjing = await idOf('cropSubtype', '龙粳31');
      const xianyu = await idOf('cropSubtype', '先玉335');
      const jinpeng = await idOf('cropSubtype', '金棚1号');
      const heihe = await idOf('cropSubtype', '黑河43');
      const year = new Date().getFullYear();
      if (rice) await insert('plantGroups', {
        name: `${year} 东岗水稻`, cropId: rice, ...(longjing ? { cropSubtypeId: longjing } : {}), fieldId: f1, areaMu: 120,
        plantedOn: `${year}-05-18`, expectedHarvestOn: `${year}-09-28`, stage: 'vegetative', manager: '张伟',
      }, farm1);
      if (maize) await insert('plantGroups', {
        name: `${year} 西坡玉米`, cropId: maize, ...(xianyu ? { cropSubtypeId: xianyu } : {}), fieldId: f2, areaMu: 260,
        plantedOn: `${year}-05-02`, expectedHarvestOn: `${year}-09-20`, stage: 'vegetative', manager: '张伟',
      }, farm1);
      if (tomato) await insert('plantGroups', {
        name: `${year} 温室番茄春茬`, cropId: tomato, ...(jinpeng ? { cropSubtypeId: jinpeng } : {}), fieldId: f3, areaMu: 1.2,
        plantedOn: `${year}-03-10`, expectedHarvestOn: `${year}-06-30`, stage: 'fruiting', manager: '吴刚', remark: '吊蔓整枝，熊蜂授粉',
      }, farm1);
      if (soybean) await insert('plantGroups', {
        name: `${year} 沿岸大豆`, cropId: soybean, ...(heihe ? { cropSubtypeId: heihe } : {}), fieldId: n1, areaMu: 300,
        plantedOn: `${year}-05-12`, expectedHarvestOn: `${year}-09-25`, stage: 'flowering', manager: '李娜',
      }, farm2);
    }
  }

  if ((await count('articles')) === 0) {
    const author = '平台管理员';
    const published = (daysAgo: number) => new Date(Date.now() - daysAgo * 86400000).toISOString();
    await insert('articles', {
      title: '寒地水稻育秧期低温冷害防范要点', summary: '4 月育秧期气温波动大，做好棚内温度管理和苗床水分控制，可有效预防立枯病与青枯病。',
      category: 'technique', coverUrl: '/logo.svg', status: 1, publishedAt: published(20), author,
      content: '<h2>一、温度管理</h2><p>播种至出苗期棚温保持 <strong>30–32℃</strong>，出苗后逐步通风炼苗，一叶一心期棚温不超过 25℃。</p>' +
        '<h2>二、水分管理</h2><ul><li>床土保持湿润但不积水；</li><li>遇低温天气前一天浇足水，提高床土热容量。</li></ul>' +
        '<p>出现立枯病时，每平方米用 30% 甲霜·噁霉灵 1.5 毫升兑水喷施。</p>',
    });
    await insert('articles', {
      title: '2025 年耕地地力保护补贴发放办法解读', summary: '补贴对象为拥有耕地承包权的种地农民，按确权面积发放，严禁撂荒地、非农占用地申领。',
      category: 'policy', status: 1, publishedAt: published(12), author,
      content: '<p>补贴资金通过 <em>“一卡通”</em> 直接发放到户。申领时需核对承包面积与实际种植面积，村级公示 7 天无异议后上报。</p>' +
        '<p>详情请咨询当地农业农村部门，或访问 <a href="https://www.moa.gov.cn" target="_blank">农业农村部网站</a>。</p>',
    });
    await insert('articles', {
      title: '玉米大垄双行密植技术在松嫩平原的应用', summary: '大垄双行配合侧深施肥，亩保苗 4500 株以上，较常规垄作增产 8%–12%。',
      category: 'case', coverUrl: '/logo.svg', status: 1, publishedAt: published(5), author,
      content: '<p>禾丰生态农场 2024 年在西坡旱田 260 亩推广大垄双行，平均亩产 <strong>782 公斤</strong>。</p>' +
        '<table><thead><tr><th>模式</th><th>亩保苗（株）</th><th>亩产（公斤）</th></tr></thead>' +
        '<tbody><tr><td>常规垄作</td><td>3800</td><td>705</td></tr><tr><td>大垄双行</td><td>4600</td><td>782</td></tr></tbody></table>',
    });
    await insert('articles', {
      title: '本周东北大豆收购价格小幅上涨', summary: '受进口到港减少影响，黑龙江产区国产大豆收购价每斤上涨 2–3 分。',
      category: 'market', status: 1, publishedAt: published(1), author,
      content: '<p>黑河、齐齐哈尔等地蛋白豆收购价 2.35–2.45 元/斤，油豆 2.20–2.28 元/斤。预计短期内价格以稳为主。</p>',
    });
    await insert('articles', {
      title: '秋季黑土地保护性耕作作业指引（草稿）', summary: '秸秆覆盖还田与免耕播种的作业要求。', category: 'technique', status: 0, author,
      content: '<p>待补充：各积温带的作业窗口期与机具配置。</p>',
    });
    await insert('articles', {
      title: '平台冬季运维公告（草稿）', category: 'news', status: 0, author,
      content: '<p>系统将于 12 月进行数据库升级，届时暂停服务 2 小时。</p>',
    });
  }

  if ((await count('appVersions')) === 0) {
    await insert('appVersions', {
      platform: 'android', versionCode: 300, versionName: '3.0.0', downloadUrl: 'https://download.example.com/farm/farm-3.0.0.apk', fileSizeMb: 46.2,
      minOsVersion: '8.0', releaseNotes: T('全新首页；离线巡田记录。', 'New home screen; offline field patrol records.', 'Nueva pantalla de inicio; registros de recorrido sin conexión.'),
      forceUpdate: true, published: true,
    });
    await insert('appVersions', {
      platform: 'android', versionCode: 310, versionName: '3.1.0', downloadUrl: 'https://download.example.com/farm/farm-3.1.0.apk', fileSizeMb: 47.8,
      minOsVersion: '8.0', releaseNotes: T('农事记录支持拍照识别病虫害。', 'Farm records recognise pests and diseases from photos.', 'Los registros reconocen plagas y enfermedades a partir de fotos.'),
      forceUpdate: false, published: true,
    });
    await insert('appVersions', {
      platform: 'android', versionCode: 320, versionName: '3.2.0', downloadUrl: 'https://download.example.com/farm/farm-3.2.0.apk', fileSizeMb: 48.5,
      minOsVersion: '9.0', releaseNotes: T('灌溉控制（测试中）。', 'Irrigation control (in testing).', 'Control de riego (en pruebas).'),
      forceUpdate: false, published: false,
    });
    await insert('appVersions', {
      platform: 'ios', versionCode: 305, versionName: '3.0.5', downloadUrl: 'https://apps.apple.com/cn/app/id0000000000', fileSizeMb: 61,
      minOsVersion: '14.0', releaseNotes: T('修复登录后偶发白屏。', 'Fixes an occasional blank screen after login.', 'Corrige una pantalla en blanco ocasional tras iniciar sesión.'),
      forceUpdate: false, published: true,
    });
  }

  const pending = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM registration_requests')).rows[0].n;
  if (pending === 0) {
    // One hash for the demo requests: they share a password and nobody logs in with these hashes until approval.
    const passwordHash = await hashPassword(DEMO_REGISTRATION_PASSWORD);
    const request = (p: Record<string, unknown>, status = 'pending', reason: string | null = null, daysAgo = 1) =>
      db.query(
        `INSERT INTO registration_requests(payload, status, reason, reviewed_by, reviewed_at, created_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $2 = 'pending' THEN NULL ELSE now() END, now() - ($5::int * interval '1 day'))`,
        [JSON.stringify({ passwordHash, city: null, address: null, contact: null, description: null, ...p }), status, reason, status === 'pending' ? null : admin, daysAgo],
      );
    await request({ username: 'hongxing_farm', name: '刘建国', phone: '13912340001', orgName: '红星家庭农场', orgType: 0, city: '绥化市', address: '黑龙江省绥化市北林区红星村', contact: '刘建国', description: '种植水稻 300 亩' }, 'pending', null, 2);
    await request({ username: 'jinhe_fert', name: '周海燕', phone: '13912340002', orgName: '金禾生物肥料有限公司', orgType: 1, city: '长春市', address: '吉林省长春市绿园区汽车产业园 9 号', contact: '周海燕' }, 'pending', null, 1);
    await request({ username: 'miaofeng_seedling', name: '韩冰', phone: '13912340003', orgName: '苗丰蔬菜育苗场', orgType: 4, city: '哈尔滨市', address: '哈尔滨市呼兰区康金街道', contact: '韩冰', description: '年育苗 500 万株' }, 'pending', null, 0);
    await request({ username: 'test_abc', name: '测试', phone: '13912340004', orgName: '测试农场', orgType: 0 }, 'rejected', '机构信息不真实，请提供营业执照后重新申请', 6);
  }
}
