import type { Queryable } from '../db/database.ts';

/**
 * The platform material libraries of the demo (docs/materials.md, "Platform libraries"):
 * manufacturers found on the Chinese market (史丹利, 金正大, 云天化, …, and the demo
 * manufacturer 丰沃肥业 and nursery 绿源育苗基地), 8–10 entries of each kind of material,
 * dealers and device models; then each demo farm's catalogue materials are linked to the
 * library entry of the same name. Runs inside the demo seed's transaction after the
 * materials seed; does nothing when any manufacturer exists.
 */
type F = [name: string, shortName: string, region: string, kinds: string[], extra?: Record<string, unknown>];

const FACTORIES: F[] = [
  ['史丹利农业集团股份有限公司', '史丹利', '山东省临沂市', ['fertilizer'], { creditCode: '91371300706043257C', licenceNo: 'XK13-001-00012', address: '山东省临沭县兴大西街 19 号', contact: '刘经理', phone: '0539-6263620', website: 'https://www.shidanli.cn' }],
  ['金正大生态工程集团股份有限公司', '金正大', '山东省临沂市', ['fertilizer'], { creditCode: '913713007535438947', licenceNo: 'XK13-001-00395', address: '山东省临沭县兴大西街 19 号', contact: '张经理', phone: '0539-7198691', website: 'https://www.kingenta.com' }],
  ['云南云天化股份有限公司', '云天化', '云南省昆明市', ['fertilizer'], { creditCode: '915300002919962735', address: '云南省昆明市滇池路 1417 号', contact: '李经理', phone: '0871-64327127', website: 'https://www.yyth.com.cn' }],
  ['中海石油化学股份有限公司', '中海化学', '海南省东方市', ['fertilizer'], { address: '海南省东方市化工城', contact: '陈经理', phone: '0898-25522288' }],
  ['国投新疆罗布泊钾盐有限责任公司', '国投罗钾', '新疆维吾尔自治区哈密市', ['fertilizer'], { contact: '马经理', phone: '0902-2271088' }],
  ['丰沃肥业有限公司', '丰沃', '山东省济南市', ['fertilizer'], { address: '山东省济南市章丘区工业园 12 号', contact: '王强', phone: '15306410003' }],
  ['南京红太阳股份有限公司', '红太阳', '江苏省南京市', ['pesticide'], { licenceNo: '农药生许（苏）0014', address: '南京市高淳区经济开发区', contact: '周经理', phone: '025-57883588' }],
  ['利民控股集团股份有限公司', '利民', '江苏省徐州市', ['pesticide'], { licenceNo: '农药生许（苏）0098', address: '江苏省新沂经济开发区', contact: '孙经理', phone: '0516-88984525' }],
  ['河北威远生物化工有限公司', '威远', '河北省石家庄市', ['pesticide'], { licenceNo: '农药生许（冀）0033', address: '石家庄市经济技术开发区', contact: '赵经理', phone: '0311-85915678' }],
  ['北大荒垦丰种业股份有限公司', '垦丰种业', '黑龙江省哈尔滨市', ['seed'], { address: '哈尔滨市香坊区红旗大街 175 号', contact: '于经理', phone: '0451-55195599', website: 'https://www.kenfeng.com' }],
  ['北京德农种业有限公司', '德农种业', '北京市', ['seed'], { address: '北京市海淀区', contact: '郭经理', phone: '010-82898618' }],
  ['铁岭先锋种子研究有限公司', '先锋', '辽宁省铁岭市', ['seed'], { contact: '王经理', phone: '024-72283100' }],
  ['西安金鹏种苗有限公司', '金鹏种苗', '陕西省西安市', ['seed', 'seedling'], { contact: '党经理', phone: '029-87092289' }],
  ['绿源育苗基地', '绿源', '山东省寿光市', ['seedling'], { address: '山东省寿光市文家街道育苗园区', contact: '陈静', phone: '18653610005' }],
  ['新疆天业节水灌溉股份有限公司', '天业节水', '新疆维吾尔自治区石河子市', ['facilityPart'], { address: '石河子经济技术开发区北三东路 36 号', contact: '韩经理', phone: '0993-2623118' }],
  ['上海华维节水灌溉股份有限公司', '华维', '上海市', ['facilityPart'], { contact: '吴经理', phone: '021-57700508' }],
  ['青州市金田温室设备有限公司', '金田温室', '山东省青州市', ['facilityPart'], { contact: '薛经理', phone: '0536-3261288' }],
  ['江苏常发农业装备股份有限公司', '常发', '江苏省常州市', ['equipmentPart'], { contact: '钱经理', phone: '0519-88706001' }],
  ['潍柴雷沃智慧农业科技股份有限公司', '雷沃', '山东省潍坊市', ['equipmentPart'], { contact: '冯经理', phone: '0536-7515555', status: 0, remark: '合作暂停，配件改由常发供应' }],
];

type M = Record<string, unknown> & { name: string; factory: string };

const FERTILIZERS: M[] = [
  { name: '尿素 46%', factory: '中海石油化学股份有限公司', fertilizerType: 'nitrogen', fertilizerForm: 'granule', nitrogen: 46, phosphorus: 0, potassium: 0, specification: '40 公斤/袋，总氮 ≥ 46.4%', unit: '袋', referencePrice: 110, shelfLifeMonths: 36 },
  { name: '硫酸钾型复合肥 15-15-15', factory: '史丹利农业集团股份有限公司', fertilizerType: 'compound', fertilizerForm: 'granule', nitrogen: 15, phosphorus: 15, potassium: 15, registrationNo: '鲁农肥（2019）准字 6621 号', specification: '50 公斤/袋', unit: '袋', referencePrice: 165, shelfLifeMonths: 36 },
  { name: '史丹利 高塔硝硫基复合肥 26-12-10', factory: '史丹利农业集团股份有限公司', fertilizerType: 'compound', fertilizerForm: 'granule', nitrogen: 26, phosphorus: 12, potassium: 10, registrationNo: '鲁农肥（2020）准字 7012 号', specification: '40 公斤/袋', unit: '袋', referencePrice: 158, shelfLifeMonths: 36 },
  { name: '金正大 控释掺混肥料 26-10-12', factory: '金正大生态工程集团股份有限公司', fertilizerType: 'compound', fertilizerForm: 'granule', nitrogen: 26, phosphorus: 10, potassium: 12, registrationNo: '鲁农肥（2018）准字 5087 号', specification: '40 公斤/袋', unit: '袋', referencePrice: 172, shelfLifeMonths: 36 },
  { name: '金正大 大量元素水溶肥 20-20-20', factory: '金正大生态工程集团股份有限公司', fertilizerType: 'waterSoluble', fertilizerForm: 'powder', nitrogen: 20, phosphorus: 20, potassium: 20, registrationNo: '农肥（2020）准字 15820 号', specification: '10 公斤/袋', unit: '袋', referencePrice: 135, shelfLifeMonths: 24 },
  { name: '磷酸二铵 18-46-0', factory: '云南云天化股份有限公司', fertilizerType: 'phosphate', fertilizerForm: 'granule', nitrogen: 18, phosphorus: 46, potassium: 0, specification: '50 公斤/袋', unit: '袋', referencePrice: 205, shelfLifeMonths: 36 },
  { name: '云天化 硫酸钾复合肥 17-17-17', factory: '云南云天化股份有限公司', fertilizerType: 'compound', fertilizerForm: 'granule', nitrogen: 17, phosphorus: 17, potassium: 17, registrationNo: '云农肥（2017）准字 0562 号', specification: '50 公斤/袋', unit: '袋', referencePrice: 178, shelfLifeMonths: 36 },
  { name: '硫酸钾 K₂O 50%', factory: '国投新疆罗布泊钾盐有限责任公司', fertilizerType: 'potash', fertilizerForm: 'powder', nitrogen: 0, phosphorus: 0, potassium: 50, registrationNo: '新农肥（2016）准字 0218 号', specification: '50 公斤/袋', unit: '袋', referencePrice: 190, shelfLifeMonths: 36 },
  { name: '丰沃 复合肥 15-15-15', factory: '丰沃肥业有限公司', fertilizerType: 'compound', fertilizerForm: 'granule', nitrogen: 15, phosphorus: 15, potassium: 15, registrationNo: '鲁农肥（2021）准字 5112 号', specification: '50 公斤/袋', unit: '袋', referencePrice: 158, shelfLifeMonths: 36 },
  { name: '丰沃 生物有机肥', factory: '丰沃肥业有限公司', fertilizerType: 'microbial', fertilizerForm: 'granule', registrationNo: '微生物肥（2021）准字 9032 号', specification: '40 公斤/袋，有机质 ≥ 40%，有效活菌数 ≥ 0.2 亿/克', unit: '袋', referencePrice: 68, shelfLifeMonths: 12 },
];

const PESTICIDES: M[] = [
  { name: '吡虫啉 10% 可湿性粉剂', factory: '南京红太阳股份有限公司', activeIngredient: '吡虫啉 10%', pesticideType: 'insecticide', formulation: '可湿性粉剂', toxicity: 'low', safetyIntervalDays: 14, targets: '水稻稻飞虱、小麦蚜虫', registrationNo: 'PD20096870', specification: '100 克/袋', unit: '袋', referencePrice: 8.5, shelfLifeMonths: 24 },
  { name: '代森锰锌 80% 可湿性粉剂', factory: '利民控股集团股份有限公司', activeIngredient: '代森锰锌 80%', pesticideType: 'fungicide', formulation: '可湿性粉剂', toxicity: 'low', safetyIntervalDays: 15, targets: '番茄早疫病、马铃薯晚疫病', registrationNo: 'PD20081234', specification: '500 克/袋', unit: '袋', referencePrice: 22, shelfLifeMonths: 24 },
  { name: '阿维菌素 1.8% 乳油', factory: '河北威远生物化工有限公司', activeIngredient: '阿维菌素 1.8%', pesticideType: 'insecticide', formulation: '乳油', toxicity: 'low', safetyIntervalDays: 7, targets: '十字花科小菜蛾、红蜘蛛', registrationNo: 'PD20070171', specification: '500 毫升/瓶', unit: '瓶', referencePrice: 18, shelfLifeMonths: 24 },
  { name: '吡蚜酮 25% 悬浮剂', factory: '南京红太阳股份有限公司', activeIngredient: '吡蚜酮 25%', pesticideType: 'insecticide', formulation: '悬浮剂', toxicity: 'low', safetyIntervalDays: 14, targets: '水稻稻飞虱', registrationNo: 'PD20121853', specification: '100 毫升/瓶', unit: '瓶', referencePrice: 15, shelfLifeMonths: 24 },
  { name: '戊唑醇 430 克/升 悬浮剂', factory: '利民控股集团股份有限公司', activeIngredient: '戊唑醇 430 克/升', pesticideType: 'fungicide', formulation: '悬浮剂', toxicity: 'low', safetyIntervalDays: 21, targets: '小麦赤霉病、水稻纹枯病', registrationNo: 'PD20102139', specification: '100 毫升/瓶', unit: '瓶', referencePrice: 26, shelfLifeMonths: 24 },
  { name: '高效氯氟氰菊酯 2.5% 乳油', factory: '南京红太阳股份有限公司', activeIngredient: '高效氯氟氰菊酯 2.5%', pesticideType: 'insecticide', formulation: '乳油', toxicity: 'moderate', safetyIntervalDays: 7, targets: '玉米螟、菜青虫', registrationNo: 'PD20080467', specification: '500 毫升/瓶', unit: '瓶', referencePrice: 16, shelfLifeMonths: 24 },
  { name: '春雷霉素 2% 水剂', factory: '河北威远生物化工有限公司', activeIngredient: '春雷霉素 2%', pesticideType: 'fungicide', formulation: '水剂', toxicity: 'slight', safetyIntervalDays: 21, targets: '水稻稻瘟病', registrationNo: 'PD20095312', specification: '200 毫升/瓶', unit: '瓶', referencePrice: 12, shelfLifeMonths: 24 },
  { name: '多菌灵 50% 可湿性粉剂', factory: '利民控股集团股份有限公司', activeIngredient: '多菌灵 50%', pesticideType: 'fungicide', formulation: '可湿性粉剂', toxicity: 'low', safetyIntervalDays: 30, targets: '水稻纹枯病、小麦赤霉病', registrationNo: 'PD20085866', specification: '500 克/袋', unit: '袋', referencePrice: 14, shelfLifeMonths: 24 },
  { name: '烟嘧磺隆 4% 可分散油悬浮剂', factory: '利民控股集团股份有限公司', activeIngredient: '烟嘧磺隆 4%', pesticideType: 'herbicide', formulation: '可分散油悬浮剂', toxicity: 'low', safetyIntervalDays: 60, targets: '玉米田一年生杂草（苗后 3–5 叶期）', registrationNo: 'PD20110622', specification: '1 升/瓶', unit: '瓶', referencePrice: 45, shelfLifeMonths: 24, status: 0, remark: '本批包装停产' },
];

const SEEDS: M[] = [
  { name: '郑单958 玉米种', factory: '北京德农种业有限公司', crop: '玉米', variety: '郑单958', approvalNo: '国审玉20000009', germinationRate: 85, purity: 96, traits: '中熟，株型紧凑，耐密抗倒，适合东华北春玉米区。', specification: '10 公斤/袋，包衣', unit: '袋', referencePrice: 380 },
  { name: '先玉335 玉米种', factory: '铁岭先锋种子研究有限公司', crop: '玉米', variety: '先玉335', approvalNo: '国审玉2006026', germinationRate: 93, purity: 98, traits: '早熟，出苗快，籽粒脱水快。', specification: '10 公斤/袋，包衣', unit: '袋', referencePrice: 450 },
  { name: '京科968 玉米种', factory: '北京德农种业有限公司', crop: '玉米', variety: '京科968', approvalNo: '国审玉2011007', germinationRate: 90, purity: 97, specification: '10 公斤/袋，包衣', unit: '袋', referencePrice: 410 },
  { name: '龙粳31 水稻种', factory: '北大荒垦丰种业股份有限公司', crop: '水稻', variety: '龙粳31', approvalNo: '黑审稻2011003', germinationRate: 85, purity: 99, traits: '寒地粳稻，第三积温带主栽，米质优。', specification: '25 公斤/袋', unit: '袋', referencePrice: 180 },
  { name: '绥粳18 水稻种', factory: '北大荒垦丰种业股份有限公司', crop: '水稻', variety: '绥粳18', approvalNo: '黑审稻2014021', germinationRate: 85, purity: 99, specification: '25 公斤/袋', unit: '袋', referencePrice: 175 },
  { name: '黑河43 大豆种', factory: '北大荒垦丰种业股份有限公司', crop: '大豆', variety: '黑河43', approvalNo: '黑审豆2007013', germinationRate: 85, purity: 98, traits: '早熟高产，适合第四、五积温带。', specification: '20 公斤/袋', unit: '袋', referencePrice: 160 },
  { name: '金棚1号 番茄种子', factory: '西安金鹏种苗有限公司', crop: '番茄', variety: '金棚1号', approvalNo: '陕审菜2001001', germinationRate: 90, purity: 98, traits: '早熟粉果，耐低温弱光，适合日光温室。', specification: '1000 粒/袋', unit: '袋', referencePrice: 85 },
  { name: '金棚8号 番茄种子', factory: '西安金鹏种苗有限公司', crop: '番茄', variety: '金棚8号', approvalNo: 'GPD番茄(2018)610233', germinationRate: 92, purity: 98, specification: '1000 粒/袋', unit: '袋', referencePrice: 120 },
];

const SEEDLINGS: M[] = [
  { name: '番茄穴盘苗（金棚1号）', factory: '绿源育苗基地', crop: '番茄', variety: '金棚1号', seedlingAgeDays: 35, traits: '72 孔穴盘，4–5 片真叶，无病虫。', specification: '72 孔/盘', unit: '株', referencePrice: 0.45 },
  { name: '番茄嫁接苗（金棚8号）', factory: '绿源育苗基地', crop: '番茄', variety: '金棚8号', seedlingAgeDays: 45, traits: '砧木抗根结线虫、枯萎病。', specification: '50 孔/盘', unit: '株', referencePrice: 1.2 },
  { name: '黄瓜嫁接苗（津优35）', factory: '绿源育苗基地', crop: '黄瓜', variety: '津优35', seedlingAgeDays: 30, traits: '黑籽南瓜砧木，耐低温。', specification: '50 孔/盘', unit: '株', referencePrice: 0.9 },
  { name: '辣椒穴盘苗（中椒6号）', factory: '绿源育苗基地', crop: '辣椒', variety: '中椒6号', seedlingAgeDays: 50, specification: '72 孔/盘', unit: '株', referencePrice: 0.4 },
  { name: '茄子嫁接苗（布利塔）', factory: '绿源育苗基地', crop: '茄子', variety: '布利塔', seedlingAgeDays: 60, specification: '50 孔/盘', unit: '株', referencePrice: 1.5 },
  { name: '西瓜嫁接苗（京欣2号）', factory: '西安金鹏种苗有限公司', crop: '西瓜', variety: '京欣2号', seedlingAgeDays: 35, specification: '50 孔/盘', unit: '株', referencePrice: 1.1 },
  { name: '草莓脱毒苗（红颜）', factory: '绿源育苗基地', crop: '草莓', variety: '红颜', seedlingAgeDays: 90, traits: '组培脱毒，匍匐茎繁殖。', specification: '营养钵', unit: '株', referencePrice: 0.8 },
  { name: '水稻钵育秧苗（龙粳31）', factory: '北大荒垦丰种业股份有限公司', crop: '水稻', variety: '龙粳31', seedlingAgeDays: 30, traits: '钵育摆栽，3.1–3.5 叶。', specification: '561 孔/盘', unit: '盘', referencePrice: 6.5 },
];

const EQUIPMENT_PARTS: M[] = [
  { name: '旋耕机刀片', factory: '江苏常发农业装备股份有限公司', model: 'IT245', suitableFor: '1GQN 系列旋耕机', material: '65Mn 钢', specification: '弯刀，左右各半', unit: '片', referencePrice: 12 },
  { name: '插秧机秧针', factory: '江苏常发农业装备股份有限公司', model: 'CF-2ZS-01', suitableFor: '2ZS-6 手扶插秧机', material: '合金钢', specification: '标准秧针', unit: '根', referencePrice: 9 },
  { name: '收割机割刀片', factory: '潍柴雷沃智慧农业科技股份有限公司', model: 'GE60-DP', suitableFor: '谷神 GE60 联合收割机', material: '高碳钢', specification: '齿形刀片', unit: '片', referencePrice: 4.5 },
  { name: '拖拉机空气滤清器滤芯', factory: '潍柴雷沃智慧农业科技股份有限公司', model: 'K2036', suitableFor: '欧豹 M904 拖拉机', material: '滤纸', specification: '外芯', unit: '个', referencePrice: 68 },
  { name: '播种机排种盘', factory: '江苏常发农业装备股份有限公司', model: 'PZ-24', suitableFor: '2BYF 玉米精量播种机', material: '尼龙', specification: '24 孔', unit: '个', referencePrice: 25 },
  { name: '喷杆扇形喷头', factory: '江苏常发农业装备股份有限公司', model: 'ST110-02', suitableFor: '3WX 自走式喷杆喷雾机', material: '陶瓷芯', specification: '110°，0.2 MPa 流量 0.65 升/分', unit: '个', referencePrice: 8 },
  { name: '植保无人机桨叶', factory: '江苏常发农业装备股份有限公司', model: 'R4711', suitableFor: '四旋翼植保无人机', material: '碳纤维复合材料', specification: '47 英寸，正反桨一对', unit: '对', referencePrice: 260 },
  { name: '三角带', factory: '潍柴雷沃智慧农业科技股份有限公司', model: 'B-1880', suitableFor: '收割机脱粒滚筒', material: '橡胶帆布', specification: 'B 型，长 1880 毫米', unit: '条', referencePrice: 35 },
];

const FACILITY_PARTS: M[] = [
  { name: '内镶式滴灌带', factory: '新疆天业节水灌溉股份有限公司', model: 'TY-16-300', suitableFor: '大田膜下滴灌、温室滴灌', material: 'PE', specification: '16 毫米，滴头间距 30 厘米，500 米/卷', unit: '卷', referencePrice: 260 },
  { name: '手动卷膜器', factory: '青州市金田温室设备有限公司', model: 'JT-JM-S', suitableFor: '日光温室、拱棚侧通风', material: '镀锌钢', specification: '行程 1.5 米，含摇把', unit: '个', referencePrice: 45 },
  { name: '电动卷膜器', factory: '青州市金田温室设备有限公司', model: 'JT-JM-24V', suitableFor: '连栋温室顶通风', material: '铝合金壳体', specification: '24 V 直流，40 牛·米', unit: '台', referencePrice: 380 },
  { name: '温室保温被', factory: '青州市金田温室设备有限公司', model: 'BWB-700', suitableFor: '日光温室前屋面', material: '针刺棉、防水布', specification: '700 克/平方米，宽 3 米', unit: '平方米', referencePrice: 18 },
  { name: '压膜线', factory: '青州市金田温室设备有限公司', model: 'YMX-8', suitableFor: '拱棚、日光温室', material: '聚丙烯加钢丝', specification: '宽 8 毫米，200 米/卷', unit: '卷', referencePrice: 30 },
  { name: 'PO 流滴消雾棚膜', factory: '青州市金田温室设备有限公司', model: 'PO-0.08', suitableFor: '日光温室', material: 'PO', specification: '0.08 毫米，宽 12 米', unit: '公斤', referencePrice: 22 },
  { name: '叠片过滤器', factory: '上海华维节水灌溉股份有限公司', model: 'HW-DP-2', suitableFor: '滴灌首部', material: '增强尼龙', specification: '2 寸，120 目', unit: '个', referencePrice: 150 },
  { name: '文丘里施肥器', factory: '上海华维节水灌溉股份有限公司', model: 'HW-WQ-1', suitableFor: '小型温室滴灌', material: 'PVC', specification: '1 寸，吸肥量 50–200 升/时', unit: '个', referencePrice: 85 },
  { name: '倒挂微喷头', factory: '上海华维节水灌溉股份有限公司', model: 'HW-DG-4', suitableFor: '温室育苗喷灌', material: 'POM', specification: '四出水，流量 40 升/时', unit: '个', referencePrice: 3.5 },
];

const DEALERS: Record<string, unknown>[] = [
  { name: '黑龙江省农资集团有限公司', level: 'provincial', factory: '金正大生态工程集团股份有限公司', kinds: ['fertilizer', 'pesticide', 'seed'], licenceNo: '农药经许（黑）23010020001', region: '黑龙江省哈尔滨市', address: '哈尔滨市南岗区红军街 15 号', contact: '刘国庆', phone: '0451-53628877' },
  { name: '北大荒农资双城供应站', level: 'county', factory: '史丹利农业集团股份有限公司', kinds: ['fertilizer', 'pesticide'], licenceNo: '农药经许（黑）23011320015', region: '黑龙江省哈尔滨市双城区', address: '哈尔滨市双城区农丰镇站前街 18 号', contact: '孙志刚', phone: '0451-53121188' },
  { name: '嫩江市丰收农资经销处', level: 'county', factory: '丰沃肥业有限公司', kinds: ['fertilizer', 'seed'], region: '黑龙江省黑河市嫩江市', address: '嫩江市繁荣街 66 号', contact: '于长海', phone: '13945621180' },
  { name: '五常市绿野农资商店', level: 'township', factory: '北大荒垦丰种业股份有限公司', kinds: ['seed', 'pesticide'], licenceNo: '农药经许（黑）23018420033', region: '黑龙江省哈尔滨市五常市', address: '五常市民乐乡中心街 3 号', contact: '王秀兰', phone: '13796688012' },
  { name: '临沂市兰山区惠农农资有限公司', level: 'city', factory: '史丹利农业集团股份有限公司', kinds: ['fertilizer'], region: '山东省临沂市兰山区', address: '临沂市兰山区通达路 88 号', contact: '李建华', phone: '0539-8156677' },
  { name: '寿光市农丰农资经营部', level: 'township', factory: '金正大生态工程集团股份有限公司', kinds: ['fertilizer', 'pesticide', 'seed', 'facilityPart'], licenceNo: '农药经许（鲁）37078320112', region: '山东省潍坊市寿光市', address: '山东省寿光市文家街道农资大市场 3 区 12 号', contact: '刘建国', phone: '13563610456' },
  { name: '石河子天业节水器材经销部', level: 'city', factory: '新疆天业节水灌溉股份有限公司', kinds: ['facilityPart'], region: '新疆维吾尔自治区石河子市', address: '石河子市北四路 102 号', contact: '韩军', phone: '0993-2018866' },
  { name: '昆明滇中农资连锁有限公司', level: 'city', factory: '云南云天化股份有限公司', kinds: ['fertilizer', 'pesticide'], region: '云南省昆明市', address: '昆明市官渡区关上中路 21 号', contact: '杨丽', phone: '0871-67182233', status: 0, remark: '2025 年起暂停合作' },
];

const DEVICES: Record<string, unknown>[] = [
  { name: '土壤三参数传感器', model: 'RS-ECTH-N01-TR', kind: 'sensor', vendor: '山东仁科测控技术有限公司', protocol: 'modbusRtu', quantities: ['soilMoisture', 'soilTemperature', 'soilEc'], powerSupply: 'dc12v', ipRating: 'IP68', measurementRange: '水分 0–100%，温度 -40–80 ℃，电导率 0–20000 μS/cm', accuracy: '水分 ±3%，温度 ±0.5 ℃', referencePrice: 420 },
  { name: '土壤水分温度传感器', model: 'TZS-2X-G', kind: 'sensor', vendor: '浙江托普云农科技股份有限公司', protocol: 'loraWan', quantities: ['soilMoisture', 'soilTemperature'], powerSupply: 'battery', ipRating: 'IP67', measurementRange: '水分 0–100%，温度 -40–80 ℃', accuracy: '±2%', referencePrice: 680 },
  { name: '空气温湿度传感器', model: 'RS-WS-N01-2', kind: 'sensor', vendor: '山东仁科测控技术有限公司', protocol: 'modbusRtu', quantities: ['airTemperature', 'airHumidity'], powerSupply: 'dc12v', ipRating: 'IP65', measurementRange: '-40–80 ℃，0–100 %RH', accuracy: '±0.5 ℃，±3 %RH', referencePrice: 180 },
  { name: '光照度传感器', model: 'RS-GZ-N01-2', kind: 'sensor', vendor: '山东仁科测控技术有限公司', protocol: 'modbusRtu', quantities: ['light'], powerSupply: 'dc12v', ipRating: 'IP65', measurementRange: '0–200000 Lux', accuracy: '±7%', referencePrice: 220 },
  { name: '二氧化碳传感器', model: 'RS-CO2-N01', kind: 'sensor', vendor: '山东仁科测控技术有限公司', protocol: 'modbusRtu', quantities: ['co2'], powerSupply: 'dc12v', ipRating: 'IP54', measurementRange: '0–5000 ppm', accuracy: '±(40 ppm + 3%)', referencePrice: 560 },
  { name: '4G 物联网网关', model: 'F2414', kind: 'gateway', vendor: '厦门四信通信科技有限公司', protocol: 'mqtt', powerSupply: 'dc12v', ipRating: 'IP30', remark: 'RS485 转 4G，MQTT 上报', referencePrice: 890 },
  { name: 'LoRaWAN 网关', model: 'TG-LW8', kind: 'gateway', vendor: '浙江托普云农科技股份有限公司', protocol: 'loraWan', powerSupply: 'poe', ipRating: 'IP65', remark: '8 通道，覆盖半径约 3 公里', referencePrice: 2600 },
  { name: '无线阀门控制器', model: 'TP-FK-2', kind: 'valve', vendor: '浙江托普云农科技股份有限公司', protocol: 'loraWan', quantities: ['waterPressure'], powerSupply: 'solar', ipRating: 'IP67', remark: '控制 2 路 24 V 脉冲电磁阀', referencePrice: 1200 },
  { name: '灌溉电磁阀', model: 'DN50-24VAC', kind: 'valve', vendor: '上海华维节水灌溉股份有限公司', protocol: 'modbusRtu', powerSupply: 'mains', ipRating: 'IP68', measurementRange: '0.07–1.0 MPa', referencePrice: 350 },
  { name: '小型气象站', model: 'RS-QXZN-M', kind: 'weatherStation', vendor: '山东仁科测控技术有限公司', protocol: 'cat1', quantities: ['airTemperature', 'airHumidity', 'rainfall', 'windSpeed', 'windDirection', 'light'], powerSupply: 'solar', ipRating: 'IP65', referencePrice: 5800 },
  { name: '智能水肥一体机', model: 'HW-SF-3', kind: 'fertigation', vendor: '上海华维节水灌溉股份有限公司', protocol: 'mqtt', quantities: ['flow', 'waterPressure'], powerSupply: 'mains', ipRating: 'IP54', remark: '三通道吸肥，EC/pH 在线调配', referencePrice: 26000 },
  { name: '球形网络摄像机', model: 'DS-2DC4423IW-D', kind: 'camera', vendor: '杭州海康威视数字技术股份有限公司', protocol: 'http', powerSupply: 'poe', ipRating: 'IP66', remark: '400 万像素，23 倍光学变焦', referencePrice: 1900 },
  { name: '管道电磁流量计', model: 'LDG-DN50', kind: 'sensor', vendor: '上海华维节水灌溉股份有限公司', protocol: 'modbusRtu', quantities: ['flow'], powerSupply: 'mains', ipRating: 'IP65', status: 0, remark: '已停产，由超声波流量计替代', referencePrice: 3200 },
];

/** Farm catalogue names (server/materials/seed.ts) → the library entry they stand for. */
const CATALOGUE_LINKS: Record<string, string> = {
  '复合肥 15-15-15': '硫酸钾型复合肥 15-15-15',
  尿素: '尿素 46%',
  磷酸二铵: '磷酸二铵 18-46-0',
  硫酸钾: '硫酸钾 K₂O 50%',
  '吡虫啉 10% 可湿性粉剂': '吡虫啉 10% 可湿性粉剂',
  '阿维菌素 1.8% 乳油': '阿维菌素 1.8% 乳油',
  '代森锰锌 80% 可湿性粉剂': '代森锰锌 80% 可湿性粉剂',
  内镶式滴灌带: '内镶式滴灌带',
  旋耕机刀片: '旋耕机刀片',
  '龙粳31 种子': '龙粳31 水稻种',
  '先玉335 玉米种': '先玉335 玉米种',
  '金棚1号 番茄种子': '金棚1号 番茄种子',
};

export async function seedMaterialLibraries(db: Queryable): Promise<void> {
  const existing = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'tankFactories'`);
  if (existing.rows[0].n > 0) return;
  const admin = (await db.query<{ id: number }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]?.id ?? null;
  const insert = async (resource: string, data: Record<string, unknown>) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO resource_records(resource, farm_id, bloc_id, data, created_by, updated_by) VALUES ($1, NULL, NULL, $2, $3, $3) RETURNING id`,
      [resource, JSON.stringify(data), admin],
    );
    return Number(rows[0].id);
  };
  const crops = new Map(
    (await db.query<{ id: number; name: string }>(`SELECT id, data->>'name' AS name FROM resource_records WHERE resource = 'crops'`)).rows.map((r) => [r.name, Number(r.id)]),
  );

  const factories = new Map<string, number>();
  for (const [name, shortName, region, kinds, extra] of FACTORIES) {
    factories.set(name, await insert('tankFactories', { name, shortName, region, kinds, status: 1, ...extra }));
  }
  const factoryId = (name: string) => {
    const id = factories.get(name);
    if (id === undefined) throw new Error(`library seed: no manufacturer ${name}`);
    return id;
  };

  const entries = new Map<string, number>();
  const kinds: [string, M[]][] = [
    ['fertilizer', FERTILIZERS],
    ['pesticide', PESTICIDES],
    ['seed', SEEDS],
    ['seedling', SEEDLINGS],
    ['equipmentPart', EQUIPMENT_PARTS],
    ['facilityPart', FACILITY_PARTS],
  ];
  for (const [mainType, list] of kinds) {
    for (const { factory, crop, ...rest } of list) {
      const cropId = typeof crop === 'string' ? crops.get(crop) : undefined;
      const data = { mainType, ...rest, factoryId: factoryId(factory), status: rest.status ?? 1, ...(cropId ? { cropId } : {}) };
      entries.set(rest.name, await insert('tankMaterials', data));
    }
  }
  for (const { factory, ...rest } of DEALERS) await insert('tankAgents', { ...rest, factoryId: factoryId(String(factory)), status: rest.status ?? 1 });
  for (const d of DEVICES) await insert('deviceModels', { ...d, status: d.status ?? 1 });

  // The demo farms' catalogues name the entries they buy.
  for (const [catalogueName, entryName] of Object.entries(CATALOGUE_LINKS)) {
    const id = entries.get(entryName);
    if (id === undefined) throw new Error(`library seed: no entry ${entryName}`);
    await db.query(
      `UPDATE resource_records SET data = data || jsonb_build_object('libraryId', $1::bigint) WHERE resource = 'farmMaterials' AND data->>'name' = $2`,
      [id, catalogueName],
    );
  }
}
