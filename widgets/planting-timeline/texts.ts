/**
 * The timeline's own texts in zh, en and es. The runtime's locales/ hold the runtime's
 * strings only (DESIGN.md: widgets depend on the widget API, not on the runtime's
 * internals), so the widget carries its table; the type makes a missing language or key a
 * compile error, as the runtime's locale test does for locales/.
 */
import { dateParts } from './dates.ts';

export type TimelineLanguage = 'zh' | 'en' | 'es';

export const TASK_STATUSES = ['planned', 'published', 'inProgress', 'done', 'overdue'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

interface BarWords {
  name: string;
  start: string;
  end: string;
  days: number;
  status: string;
}

export interface TimelineTexts {
  region: string;
  zoom: string;
  zooms: Record<'day' | 'week' | 'month', string>;
  legend: string;
  status: Record<TaskStatus, string>;
  itemColumn: string;
  stages: string;
  keyNodes: string;
  today: string;
  keyboardHelp: string;
  bar(w: BarWords): string;
  stage(name: string, start: string, end: string): string;
  keyNode(name: string, date: string): string;
  draft(name: string, start: string, end: string): string;
  saving(name: string): string;
  saved(name: string, start: string, end: string): string;
  refusedPrefix: string;
  refusedFallback: string;
  dismiss: string;
  empty: string;
  loading: string;
  loadFailed: string;
  monthLabel(year: number, month: number): string;
  /** A finish-to-start dependency in words (the screen readers' list; the drawing shows it as an arrow). */
  dependency(name: string, predecessor: string, lagDays: number): string;
  dependencyLegend: string;
}

const zh: TimelineTexts = {
  region: '种植计划时间轴',
  zoom: '缩放',
  zooms: { day: '日', week: '周', month: '月' },
  legend: '任务状态',
  status: { planned: '未发布', published: '已发布', inProgress: '进行中', done: '已完成', overdue: '已逾期' },
  itemColumn: '农事项',
  stages: '生育阶段',
  keyNodes: '关键节点',
  today: '今天',
  keyboardHelp: '选中任务条后：←/→ 移动一天，Shift+←/→ 调整结束日期，Enter 保存，Esc 取消，↑/↓ 切换任务。',
  bar: (w) => `${w.name}，${w.start} 至 ${w.end}，共 ${w.days} 天，${w.status}`,
  stage: (name, start, end) => `生育阶段 ${name}，${start} 至 ${end}`,
  keyNode: (name, date) => `关键节点 ${name}，${date}`,
  draft: (name, start, end) => `${name}：${start} 至 ${end}，尚未保存，Enter 保存，Esc 取消`,
  saving: (name) => `正在保存 ${name}…`,
  saved: (name, start, end) => `${name} 已改为 ${start} 至 ${end}`,
  refusedPrefix: '未保存：',
  refusedFallback: '服务器拒绝了这次修改',
  dismiss: '关闭',
  empty: '该计划还没有农事项',
  loading: '正在加载计划…',
  loadFailed: '计划加载失败',
  monthLabel: (year, month) => `${year}年${month}月`,
  dependency: (name, predecessor, lag) => `${name} 在 ${predecessor} 结束${lag ? ` ${lag} 天` : ''}后开始`,
  dependencyLegend: '前置关系（结束后开始）',
};

const en: TimelineTexts = {
  region: 'Planting-plan timeline',
  zoom: 'Zoom',
  zooms: { day: 'Day', week: 'Week', month: 'Month' },
  legend: 'Task status',
  status: { planned: 'Not published', published: 'Published', inProgress: 'In progress', done: 'Done', overdue: 'Overdue' },
  itemColumn: 'Work item',
  stages: 'Growth stages',
  keyNodes: 'Key nodes',
  today: 'Today',
  keyboardHelp: 'On a task bar: ←/→ move it by a day, Shift+←/→ change its end, Enter saves, Esc cancels, ↑/↓ go to another task.',
  bar: (w) => `${w.name}, ${w.start} to ${w.end}, ${w.days} ${w.days === 1 ? 'day' : 'days'}, ${w.status}`,
  stage: (name, start, end) => `Growth stage ${name}, ${start} to ${end}`,
  keyNode: (name, date) => `Key node ${name}, ${date}`,
  draft: (name, start, end) => `${name}: ${start} to ${end}, not saved; Enter saves, Esc cancels`,
  saving: (name) => `Saving ${name}…`,
  saved: (name, start, end) => `${name} moved to ${start} – ${end}`,
  refusedPrefix: 'Not saved: ',
  refusedFallback: 'The server refused this change',
  dismiss: 'Close',
  empty: 'This plan has no items yet',
  loading: 'Loading the plan…',
  loadFailed: 'The plan could not be loaded',
  monthLabel: (year, month) => new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1)),
  dependency: (name, predecessor, lag) => `${name} starts ${lag ? `${lag} ${lag === 1 ? 'day' : 'days'} ` : ''}after ${predecessor} ends`,
  dependencyLegend: 'Dependency (finish to start)',
};

const es: TimelineTexts = {
  region: 'Cronograma del plan de cultivo',
  zoom: 'Escala',
  zooms: { day: 'Día', week: 'Semana', month: 'Mes' },
  legend: 'Estado de la tarea',
  status: { planned: 'Sin publicar', published: 'Publicada', inProgress: 'En curso', done: 'Hecha', overdue: 'Atrasada' },
  itemColumn: 'Labor',
  stages: 'Fases de crecimiento',
  keyNodes: 'Hitos',
  today: 'Hoy',
  keyboardHelp: 'En una barra: ←/→ la mueven un día, Mayús+←/→ cambian su fin, Intro guarda, Esc cancela, ↑/↓ van a otra tarea.',
  bar: (w) => `${w.name}, del ${w.start} al ${w.end}, ${w.days} ${w.days === 1 ? 'día' : 'días'}, ${w.status}`,
  stage: (name, start, end) => `Fase ${name}, del ${start} al ${end}`,
  keyNode: (name, date) => `Hito ${name}, ${date}`,
  draft: (name, start, end) => `${name}: del ${start} al ${end}, sin guardar; Intro guarda, Esc cancela`,
  saving: (name) => `Guardando ${name}…`,
  saved: (name, start, end) => `${name} pasa al ${start} – ${end}`,
  refusedPrefix: 'No guardado: ',
  refusedFallback: 'El servidor rechazó este cambio',
  dismiss: 'Cerrar',
  empty: 'Este plan aún no tiene labores',
  loading: 'Cargando el plan…',
  loadFailed: 'No se pudo cargar el plan',
  monthLabel: (year, month) => new Intl.DateTimeFormat('es', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1)),
  dependency: (name, predecessor, lag) => `${name} empieza ${lag ? `${lag} ${lag === 1 ? 'día' : 'días'} ` : ''}después de que termine ${predecessor}`,
  dependencyLegend: 'Dependencia (fin a inicio)',
};

export const TIMELINE_TEXTS: Record<TimelineLanguage, TimelineTexts> = { zh, en, es };

/** A day as people read it in each language: 2026-03-05, 5 Mar 2026, 5 mar 2026. */
export function formatDay(day: number, language: TimelineLanguage): string {
  const { year, month, date } = dateParts(day);
  if (language === 'zh') return `${year}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
  let format = dayFormats.get(language);
  if (!format) dayFormats.set(language, (format = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })));
  return format.format(Date.UTC(year, month - 1, date));
}
const dayFormats = new Map<TimelineLanguage, Intl.DateTimeFormat>();
