/** The map widget's words (zh / en / es). */
export type MapLanguage = 'zh' | 'en' | 'es';

export const MAP_TEXTS = {
  zh: {
    map: '农场地图', loading: '正在加载地图…', loadFailed: '地图数据加载失败', empty: '还没有绘制任何图形：选择“绘制地块”在地图上画出第一块地。',
    layers: '图层', boundary: '农场边界', plots: '地块', greenhouseGroups: '温室群', greenhouses: '温室', facilities: '设施',
    colourBy: '地块着色', byCrop: '按作物', byStage: '按状态',
    select: '查看', drawPolygon: '绘制地块', drawPoint: '标注点位', edit: '编辑顶点', measureLength: '测距', measureArea: '测面积', fit: '全图', importFile: '导入测绘文件', exportGeoJson: '导出 GeoJSON', exportKml: '导出 KML', landFile: '测绘文件', importAs: '无图层属性的要素导入为', importPreview: '导入预览', importConfirm: '确认导入', importCancel: '取消', importCreate: '新建', importUpdate: '更新', importRefused: '不能导入', importNothing: '没有可导入的要素', importFormats: 'GeoJSON、KML、KMZ 或 zip 压缩的 Shapefile（含 .prj）',
    tools: '工具', area: '面积', mu: '亩', ha: '公顷', m2: '平方米', metres: '米', km: '千米', distance: '距离',
    newShape: '新图形', name: '名称', code: '编号', save: '保存', cancel: '取消', delete: '删除', details: '详情', close: '关闭',
    saved: '已保存', deleted: '已删除', confirmDelete: '确定删除「{name}」吗？', crop: '作物', status: '状态', noCrop: '未种植',
    drawHint: '单击添加顶点，双击或点回起点结束。', editHint: '先单击选中一个图形，再拖动顶点；在边上拖动可增加顶点。', measureHint: '单击开始，双击结束。',
    baseMap: '底图', noBaseMap: '无底图（离线）', north: '北',
    planted: '在用', idle: '休耕', refused: '未保存：',
    devices: '设备', online: '在线', offline: '离线', alarm: '告警', place: '位置', model: '型号', lastSeen: '最后上报', readings: '最新读数', never: '从未上报', live: '实时',
  },
  en: {
    map: 'Farm map', loading: 'Loading the map…', loadFailed: 'The map data could not be loaded', empty: 'Nothing drawn yet: choose “Draw plot” and draw the first plot on the map.',
    layers: 'Layers', boundary: 'Farm boundary', plots: 'Plots', greenhouseGroups: 'Greenhouse groups', greenhouses: 'Greenhouses', facilities: 'Facilities',
    colourBy: 'Colour plots', byCrop: 'by crop', byStage: 'by state',
    select: 'Inspect', drawPolygon: 'Draw plot', drawPoint: 'Mark point', edit: 'Edit corners', measureLength: 'Distance', measureArea: 'Area', fit: 'Whole farm', importFile: 'Import a survey file', exportGeoJson: 'Export GeoJSON', exportKml: 'Export KML', landFile: 'Survey files', importAs: 'Features without a layer property become', importPreview: 'Import preview', importConfirm: 'Confirm import', importCancel: 'Cancel', importCreate: 'Create', importUpdate: 'Update', importRefused: 'Refused', importNothing: 'Nothing to import', importFormats: 'GeoJSON, KML, KMZ or a zipped Shapefile (with its .prj)',
    tools: 'Tools', area: 'Area', mu: 'mu', ha: 'ha', m2: 'm²', metres: 'm', km: 'km', distance: 'Distance',
    newShape: 'New shape', name: 'Name', code: 'Code', save: 'Save', cancel: 'Cancel', delete: 'Delete', details: 'Details', close: 'Close',
    saved: 'Saved', deleted: 'Deleted', confirmDelete: 'Delete “{name}”?', crop: 'Crop', status: 'State', noCrop: 'Not planted',
    drawHint: 'Click to add corners; double-click or click the first corner to finish.', editHint: 'Click a shape to select it, then drag its corners; drag an edge to add a corner.', measureHint: 'Click to start, double-click to finish.',
    baseMap: 'Base map', noBaseMap: 'No base map (offline)', north: 'North',
    planted: 'In use', idle: 'Fallow', refused: 'Not saved: ',
    devices: 'Devices', online: 'Online', offline: 'Offline', alarm: 'Alarm', place: 'Place', model: 'Model', lastSeen: 'Last report', readings: 'Latest readings', never: 'Never reported', live: 'Live',
  },
  es: {
    map: 'Mapa de la granja', loading: 'Cargando el mapa…', loadFailed: 'No se pudieron cargar los datos del mapa', empty: 'Aún no hay nada dibujado: elija «Dibujar parcela» y dibuje la primera parcela.',
    layers: 'Capas', boundary: 'Límite de la granja', plots: 'Parcelas', greenhouseGroups: 'Grupos de invernaderos', greenhouses: 'Invernaderos', facilities: 'Instalaciones',
    colourBy: 'Colorear parcelas', byCrop: 'por cultivo', byStage: 'por estado',
    select: 'Consultar', drawPolygon: 'Dibujar parcela', drawPoint: 'Marcar punto', edit: 'Editar vértices', measureLength: 'Distancia', measureArea: 'Superficie', fit: 'Toda la granja', importFile: 'Importar un archivo topográfico', exportGeoJson: 'Exportar GeoJSON', exportKml: 'Exportar KML', landFile: 'Archivos topográficos', importAs: 'Los elementos sin propiedad de capa se importan como', importPreview: 'Vista previa de la importación', importConfirm: 'Confirmar importación', importCancel: 'Cancelar', importCreate: 'Crear', importUpdate: 'Actualizar', importRefused: 'Rechazado', importNothing: 'Nada que importar', importFormats: 'GeoJSON, KML, KMZ o un Shapefile comprimido en zip (con su .prj)',
    tools: 'Herramientas', area: 'Superficie', mu: 'mu', ha: 'ha', m2: 'm²', metres: 'm', km: 'km', distance: 'Distancia',
    newShape: 'Forma nueva', name: 'Nombre', code: 'Código', save: 'Guardar', cancel: 'Cancelar', delete: 'Eliminar', details: 'Detalles', close: 'Cerrar',
    saved: 'Guardado', deleted: 'Eliminado', confirmDelete: '¿Eliminar «{name}»?', crop: 'Cultivo', status: 'Estado', noCrop: 'Sin cultivo',
    drawHint: 'Haga clic para añadir vértices; doble clic o clic en el primero para terminar.', editHint: 'Haga clic en una forma para elegirla y arrastre sus vértices; arrastre un borde para añadir uno.', measureHint: 'Haga clic para empezar y doble clic para terminar.',
    baseMap: 'Mapa base', noBaseMap: 'Sin mapa base (sin conexión)', north: 'Norte',
    planted: 'En uso', idle: 'En barbecho', refused: 'No guardado: ',
    devices: 'Dispositivos', online: 'En línea', offline: 'Sin conexión', alarm: 'Alarma', place: 'Ubicación', model: 'Modelo', lastSeen: 'Último informe', readings: 'Últimas lecturas', never: 'Sin informes', live: 'En vivo',
  },
} as const satisfies Record<MapLanguage, Record<string, string>>;

export type MapTexts = (typeof MAP_TEXTS)['zh'];

const localeOf = (lang: MapLanguage) => (lang === 'zh' ? 'zh-CN' : lang === 'es' ? 'es-ES' : 'en-GB');
const two = (n: number, lang: MapLanguage) => n.toLocaleString(localeOf(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const bracket = (inner: string, lang: MapLanguage) => (lang === 'zh' ? `（${inner}）` : ` (${inner})`);

/** An area (m², on the WGS 84 ellipsoid) in mu, with its hectares and square metres. */
export function formatArea(m2: number, lang: MapLanguage): string {
  const t = MAP_TEXTS[lang];
  const sq = Math.round(m2).toLocaleString(localeOf(lang));
  return `${two(m2 / (10_000 / 15), lang)} ${t.mu}${bracket(`${two(m2 / 10_000, lang)} ${t.ha}${lang === 'zh' ? '，' : ', '}${sq} ${t.m2}`, lang)}`;
}

/** A stored area in mu, with its hectares. */
export function formatMu(mu: number, lang: MapLanguage): string {
  const t = MAP_TEXTS[lang];
  return `${two(mu, lang)} ${t.mu}${bracket(`${two((mu * 10_000) / 15 / 10_000, lang)} ${t.ha}`, lang)}`;
}

export function formatLength(m: number, lang: MapLanguage): string {
  const t = MAP_TEXTS[lang];
  const locale = lang === 'zh' ? 'zh-CN' : lang === 'es' ? 'es-ES' : 'en-GB';
  return m >= 1000 ? `${(m / 1000).toLocaleString(locale, { maximumFractionDigits: 2 })} ${t.km}` : `${m.toLocaleString(locale, { maximumFractionDigits: 1 })} ${t.metres}`;
}

/** The devices' reading kinds (the devices area's channels) and their units. */
export const READING_NAMES: Record<MapLanguage, Record<string, string>> = {
  zh: { airTemperature: '空气温度', airHumidity: '空气湿度', soilMoisture: '土壤湿度', soilTemperature: '土壤温度', light: '光照', co2: '二氧化碳', ec: 'EC', ph: 'pH', rainfall: '降雨量', windSpeed: '风速' },
  en: { airTemperature: 'Air temperature', airHumidity: 'Air humidity', soilMoisture: 'Soil moisture', soilTemperature: 'Soil temperature', light: 'Light', co2: 'CO₂', ec: 'EC', ph: 'pH', rainfall: 'Rainfall', windSpeed: 'Wind speed' },
  es: { airTemperature: 'Temperatura del aire', airHumidity: 'Humedad del aire', soilMoisture: 'Humedad del suelo', soilTemperature: 'Temperatura del suelo', light: 'Luz', co2: 'CO₂', ec: 'CE', ph: 'pH', rainfall: 'Lluvia', windSpeed: 'Viento' },
};
export const READING_UNITS: Record<string, string> = {
  airTemperature: '°C', airHumidity: '%', soilMoisture: '%', soilTemperature: '°C', light: 'lx', co2: 'ppm', ec: 'mS/cm', ph: '', rainfall: 'mm', windSpeed: 'm/s',
};
