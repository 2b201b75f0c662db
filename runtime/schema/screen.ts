/**
 * Screen documents, format 1: the TypeScript face of `screen.schema.json`. The meta-schema
 * is the authority (the registry validates every document with it before anything reads
 * it); these types describe exactly what a validated, migrated document holds, so the
 * renderers can switch on `kind` without defensive checks. No React here: the server and
 * the tools import this module too.
 */
import type { Condition, Scalar } from './conditions.ts';
import type { RecordSchema } from './resource.ts';
import type { I18nText } from './texts.ts';

export type { Condition, Scalar } from './conditions.ts';
export type { I18nText, Lang } from './texts.ts';

/** The format this runtime writes and renders; older documents are migrated up to it. */
export const SCREEN_FORMAT_VERSION = 1;

/** The meta-schema's `$id`; a published document's `$schema` may name it instead of a file path. */
export const SCREEN_SCHEMA_ID = 'https://farm-backoffice.local/schema/screen.schema.json';

export const SCREEN_KINDS = ['table', 'form', 'detail', 'page', 'dashboard', 'widget'] as const;
export type ScreenKind = (typeof SCREEN_KINDS)[number];

export const FORM_MODES = ['add', 'edit', 'show'] as const;
export type FormMode = (typeof FORM_MODES)[number];

// ---------------------------------------------------------------------------------------
// Values taken from the context of a screen

/**
 * Where a value comes from, written as a dot path with a root, never as code:
 * - `row.<field>`: the table row an action belongs to;
 * - `record.<field>`: the record shown by a form or detail screen;
 * - `route.<param>`: a parameter of the current route;
 * - `query.<name>`: a search parameter of the current URL;
 * - `selection.<field>`: the list of that field over the selected rows (batch actions).
 * Or `{ "value": … }`, a literal.
 */
export type ValueRef = `${'row' | 'record' | 'route' | 'query' | 'selection'}.${string}` | { value: Scalar };

export type ParamMap = Record<string, ValueRef>;

import type { HttpMethod, ResourceOperation } from '../protocol/operations.ts';

export { HTTP_METHODS, RESOURCE_OPERATIONS, type HttpMethod, type ResourceOperation } from '../protocol/operations.ts';

/** A literal endpoint: an absolute `/api/...` path whose `:name` segments are filled from `params`. */
export interface LiteralEndpoint {
  path: string;
  /** Default GET. */
  method?: HttpMethod;
  params?: ParamMap;
  /** Search parameters added to the URL (calls whose server reads `?id=…&status=…`); empty values are left out. */
  query?: ParamMap;
}


/**
 * One of a resource's standard endpoints, so a screen need not repeat base paths:
 * page → GET {base}/page, read → GET {base}/:id, create → POST {base},
 * update → PUT {base}/:id, delete → DELETE {base}/:id, batchDelete → DELETE {base}/batch
 * with body `{ids}`. `resource` defaults to the screen's resource; `params.id` fills `:id`.
 */
export interface ResourceEndpoint {
  operation: ResourceOperation;
  resource?: string;
  params?: ParamMap;
}

export type EndpointRef = LiteralEndpoint | ResourceEndpoint;

export function isResourceEndpoint(e: EndpointRef): e is ResourceEndpoint {
  return 'operation' in e;
}

// ---------------------------------------------------------------------------------------
// Options of enumerated values

export interface Option {
  value: Scalar;
  label: I18nText;
  /** Tag colour: an antd preset name (green, red, gold, …) or a #rrggbb value. */
  color?: string;
}

/** Options read from another resource's records (a foreign key's select). */
export interface OptionsFrom {
  resource: string;
  /** Field stored as the value; default the resource's id field. */
  valueField?: string;
  /** Field shown as the label; default the resource's display field. */
  labelField?: string;
  /** Records offered, filtered by equality on these fields. */
  filter?: Record<string, ValueRef>;
}

/**
 * Options read from any endpoint: its reply `data` is an array, or a page whose `rows`
 * (or the array at `rows`) are the options. Labels may be texts ({zh, en, es}).
 */
export interface OptionsEndpoint {
  endpoint: EndpointRef;
  /** Dot path of the array in `data`; default `data` itself, or its `rows` when it is a page. */
  rows?: string;
  /** Default "value". */
  valueField?: string;
  /** Default "label"; a text object shows in the current language. */
  labelField?: string;
}

/**
 * Enumerations come from inline `options`, a server dictionary `dict` (by code),
 * `optionsFrom` (another resource's records) or `optionsEndpoint` (any endpoint).
 */
export interface Enumerated {
  options?: Option[];
  dict?: string;
  optionsFrom?: OptionsFrom;
  optionsEndpoint?: OptionsEndpoint;
}

// ---------------------------------------------------------------------------------------
// Actions

export interface ActionBase {
  label: I18nText;
  icon?: string;
  /**
   * Shown only to users holding this element code: `<menuCode>:<action>`, or `:<action>`
   * for the authority of the route the screen is shown at (see resolveElementCode).
   */
  elementCode?: string;
  /**
   * Shown only when this holds over the row (row actions), the record (form and detail
   * actions), or every selected row (batch actions). Toolbar actions test an empty object.
   */
  when?: Condition;
  danger?: boolean;
  primary?: boolean;
}

/** Go to a route of the console; every `:param` of `to` takes its value from `params`. */
export interface NavigateTarget {
  /**
   * A route pattern as a screen declares it: absolute ("/bigData-kms/growthCycle/:id/:createrId")
   * or relative to the current route's section ("growthCycle/:id/:createrId" from
   * /agricultureKnowledge/cropsManager is /agricultureKnowledge/growthCycle/:id/:createrId).
   */
  to: string;
  params?: ParamMap;
  query?: ParamMap;
  /**
   * A page the server serves outside the console (the consumer's trace page `/t/:code`):
   * opened as a document in a new tab instead of routed inside the console. `to` is then
   * absolute and need not be a screen's route.
   */
  document?: boolean;
}

export interface NavigateAction extends ActionBase, NavigateTarget {
  kind: 'navigate';
}

export interface OpenFormAction extends ActionBase {
  kind: 'openForm';
  /** Id of a `form` screen. */
  screen: string;
  mode: FormMode;
  /** Default drawer. */
  container?: 'drawer' | 'modal';
  /** Pixel width of the drawer or modal. */
  width?: number;
  /** Values for the form's id parameter (and any other route parameter it reads). */
  params?: ParamMap;
  /** Names the record in the drawer's or modal's title, e.g. "row.name": «Edit · Role permissions · Administrator». */
  subject?: ValueRef;
  /** Initial values of fields in add mode, e.g. {"cropId": "record.id"} from a crop's detail. */
  initial?: ParamMap;
}

/** A value asked of the user before a call (a rejection reason, a new password), sent in the body. */
export interface PromptField {
  /** The body property that receives the value. */
  field: string;
  label: I18nText;
  /** Default true: the call is not made without a value. */
  required?: boolean;
  /** A text area instead of a one-line input. */
  multiline?: boolean;
  /** A masked input (passwords). */
  secret?: boolean;
  maxLength?: number;
  /** Regular expression the value must match (the server checks it anyway). */
  pattern?: string;
}

export interface CallAction extends ActionBase {
  kind: 'call';
  endpoint: EndpointRef;
  /** JSON body; each value is taken from the context. */
  body?: ParamMap;
  /** Asked in the confirmation dialog; the answer goes into the body under `prompt.field`. */
  prompt?: PromptField;
  /**
   * Data sets this call changes besides the screen's resource (resource names or other
   * names, e.g. "notices"): announced after success, so that every list, option list and
   * shell part bound to them reads again (runtime/screens/data-events.ts).
   */
  announces?: string[];
  /** Where to go after success; `record.*` reads the reply's data (the record the call created or changed). */
  then?: NavigateTarget;
  /** Asked before calling; `{name}` placeholders are filled from the row's fields. */
  confirm?: I18nText;
  /** Shown after success; default the server's message. */
  success?: I18nText;
  /** Reload the table or record after success; default true. */
  refresh?: boolean;
}

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Export the current query (filters and sort, all pages up to `maxRows`) with the visible columns. */
export interface ExportAction extends ActionBase {
  kind: 'export';
  formats: ExportFormat[];
  /** File name without extension; default the screen title. */
  fileName?: I18nText;
  /** Default 10000. */
  maxRows?: number;
}

/**
 * Import records from a spreadsheet into a resource (docs/import.md): a dialog offers a
 * template, reads the chosen .xlsx or .csv file through the resource's import operation,
 * previews every row with its problems, then imports all rows (only when every one is
 * valid) or the valid ones. Toolbar only; shown to users holding the resource's create
 * code (or the action's `elementCode`).
 */
export interface ImportAction extends ActionBase {
  kind: 'import';
  /** The resource the rows are created in; default the table's. */
  resource?: string;
  /** The template's columns, in order; default every field a file may fill. Any known column of a file is read. */
  fields?: string[];
  /** The template's file name without extension; default the screen title. */
  fileName?: I18nText;
}

/**
 * A declared state transition of the row's or record's resource (docs/resources.md,
 * "States and transitions"): shown only when the record's `_transitions` hint lists it
 * and the user holds its element code; asks for the reason when the transition takes one.
 */
export interface TransitionAction extends ActionBase {
  kind: 'transition';
  /** The transition's name in the resource document. */
  transition: string;
  /** Default the screen's resource. */
  resource?: string;
  /** Asked before the call (when no reason is asked); `{name}` placeholders are filled from the row's fields. */
  confirm?: I18nText;
  /** Label of the reason input, when the transition takes a reason; default «Reason». */
  reasonLabel?: I18nText;
  /** Shown after success; default the server's message. */
  success?: I18nText;
}

export type Action = NavigateAction | OpenFormAction | CallAction | ExportAction | ImportAction | TransitionAction;
export const ACTION_KINDS = ['navigate', 'openForm', 'call', 'export', 'import', 'transition'] as const;
export type ActionKind = Action['kind'];

// ---------------------------------------------------------------------------------------
// Table

/**
 * `changes`: a list of {title, from?, to} (the operation log's changeList), shown as
 * «title: from → to» lines, the first ones in the cell and all of them on demand.
 */
export const COLUMN_RENDERS = ['text', 'tag', 'date', 'datetime', 'number', 'money', 'image', 'link', 'boolean', 'enum', 'html', 'changes', 'duration', 'bytes', 'files'] as const;
/** The unit a `duration` (default s) or `bytes` (default B) value arrives in. */
export type ValueUnit = 'ms' | 's' | 'min' | 'h' | 'd' | 'B' | 'KB' | 'MB' | 'GB' | 'TB';
export type ColumnRender = (typeof COLUMN_RENDERS)[number];

export interface Column extends Enumerated {
  /** Dot path into the row. */
  field: string;
  /** Default the record schema property's title. */
  title?: I18nText;
  width?: number;
  sortable?: boolean;
  /** Default text. `tag` and `enum` take labels from options, dict, or the record schema's enum. */
  render?: ColumnRender;
  /** Decimal places for `number` (at most, trailing zeros dropped; default 3) and `money` (two at least). */
  precision?: number;
  /** Target of `link`. */
  link?: NavigateTarget;
  /** Initially visible; the user can toggle columns. Default true. */
  visible?: boolean;
  fixed?: 'left' | 'right';
  align?: 'left' | 'center' | 'right';
  ellipsis?: boolean;
  /** The unit of a `duration` or `bytes` value. */
  valueUnit?: ValueUnit;
  /** 1: kept under 1024 px; 2 (default): shown from 1024 px; 3: shown from 1600 px. */
  priority?: 1 | 2 | 3;
}

/**
 * The resource engine's filter kinds (resource `searchable`): eq and like send `field=value`,
 * in sends the field once per value, range sends `fieldFrom` / `fieldTo`.
 */
export const FILTER_OPS = ['eq', 'like', 'in', 'range'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export const FILTER_WIDGETS = ['input', 'number', 'select', 'multiSelect', 'date', 'dateRange', 'datetimeRange', 'switch'] as const;
export type FilterWidget = (typeof FILTER_WIDGETS)[number];

/**
 * One field of the generated search form, sent as query parameters of the page request.
 * On a resource the field must be searchable there and `op` defaults to its filter kind.
 */
export interface Filter extends Enumerated {
  field: string;
  /** Default: the resource's filter kind for the field; on an endpoint table, eq. */
  op?: FilterOp;
  /** Default from the record schema: enum → select, number → number, date → dateRange, else input. */
  widget?: FilterWidget;
  title?: I18nText;
  placeholder?: I18nText;
  default?: Scalar | Scalar[];
  /**
   * Query parameter names of a two-value filter (range op, dateRange, datetimeRange),
   * when the server names them otherwise than `<field>From` / `<field>To`.
   */
  paramNames?: { from: string; to: string };
}

/** A filter every request carries, its value from the context (e.g. a route parameter); eq. */
export interface FixedFilter {
  field: string;
  value: ValueRef;
}

/**
 * Rows shown as a tree: each row's children are in its `children` array, or rows are
 * assembled under the row whose row key equals their `parentField`. The first column
 * carries the indentation and the expand toggle.
 */
export interface TreeTable {
  /** Default "children" (when `parentField` is absent). */
  children?: string;
  parentField?: string;
  /** Whether branches start expanded; default true. */
  expanded?: boolean;
}

/** The tones a highlighted row takes (antd's status colours). */
export const ROW_TONES = ['danger', 'warning', 'success', 'info'] as const;
export type RowTone = (typeof ROW_TONES)[number];

/** A row highlighted while its condition holds over the row (e.g. inputs over a limit). */
export interface RowHighlight {
  when: Condition;
  tone: RowTone;
}

/** The parts a table shares with a detail screen's related lists. */
export interface TableParts {
  columns: Column[];
  tree?: TreeTable;
  /** Rows highlighted by tone; the first rule whose condition holds over the row wins. */
  rowHighlight?: RowHighlight[];
  filters?: Filter[];
  fixedFilters?: FixedFilter[];
  toolbar?: Action[];
  rowActions?: Action[];
  batchActions?: Action[];
  /** Default `multiple` when there are batch actions, else `none`. */
  selection?: 'none' | 'single' | 'multiple';
  /** Default 10. */
  pageSize?: number;
  /**
   * Default true. False: the endpoint answers every row at once (an array or a page) and
   * takes no page parameters; no pager is shown.
   */
  paged?: boolean;
  /** The page query's `sort`: "name" ascending, "-createdAt" descending, comma-separated. Default the resource's. */
  defaultSort?: string;
  /** Field identifying a row; default the resource's id field, else `id`. */
  rowKey?: string;
}

// ---------------------------------------------------------------------------------------
// Form

export const FORM_WIDGETS = [
  'input', 'textarea', 'password', 'number', 'select', 'multiSelect', 'radio', 'checkboxes',
  'switch', 'date', 'datetime', 'image', 'file', 'richText', 'checkboxTree', 'hidden',
] as const;
export type FormWidget = (typeof FORM_WIDGETS)[number];

/**
 * The nodes of a `checkboxTree` field, read from an endpoint. Checked node keys are the
 * field's value (a list); keys of the `leaves` of each node (e.g. a menu's element codes)
 * go to the form field `leafField` instead. Checking a node checks its ancestors;
 * unchecking it unchecks its descendants.
 */
export interface TreeSource {
  endpoint: EndpointRef;
  /** Dot path of the node array in the reply's `data`; default `data`. */
  rows?: string;
  /** Node property holding the key; default "key". */
  key?: string;
  /** Node property holding the label (a string or a text); default "title". */
  label?: string;
  /** Default "children". */
  children?: string;
  /** Node property holding leaf nodes that go to `leafField`. */
  leaves?: string;
  leafField?: string;
  /** A search box above the tree: it narrows the tree to matches (with their ancestors) and highlights them. */
  search?: boolean;
  /** "Expand all" and "collapse all" buttons above the tree. */
  expandControls?: boolean;
  /** "All" and "none" links on each top-level node, (un)checking everything under it. */
  sectionSelect?: boolean;
  /** Height of the tree's scroll box in pixels, or "fill" for the window's height less the form around it; default 520. */
  height?: number | 'fill';
  /** Before saving, a dialog lists by name, per top-level node, what is checked and unchecked since loading, to confirm. */
  confirmChanges?: boolean;
}

export interface FormField extends Enumerated {
  /** A property of the record schema. */
  field: string;
  /**
   * Where the loaded record holds this field's value, when not under the field's own name:
   * a dot path; through an array it yields the list of the rest of the path
   * ("roles.id" of {roles: [{id: 1}, {id: 2}]} is [1, 2]).
   */
  source?: string;
  /** The nodes of a `checkboxTree`. */
  tree?: TreeSource;
  title?: I18nText;
  /**
   * Default from the record schema: enum → select, boolean → switch, number → number, else
   * input. `hidden` carries the value (submitted) without showing it.
   */
  widget?: FormWidget;
  /** Grid columns this field spans within its section (1 … section columns). */
  span?: number;
  placeholder?: I18nText;
  help?: I18nText;
  /** Read-only in these modes (fields are always read-only in `show`). */
  readOnlyIn?: FormMode[];
  /** Menu or element codes of which the user must hold one to see and send the field. */
  requires?: string[];
  /** Not shown in these modes. */
  hiddenIn?: FormMode[];
  /** Shown only while this holds over the form's data. */
  when?: Condition;
  /** rjsf uiSchema entries for this field; keys start with "ui:". */
  ui?: Record<string, unknown>;
  /** An array-of-objects field: the layout of each row and the row properties chosen from options. */
  items?: LineItems;
}

/** The rows of an array-of-objects field (line items), each a grid of `columns` (default: one per property, at most 6). */
export interface LineItems {
  columns?: number;
  fields?: LineItemField[];
  /** A computed amount per row (quantity × unit price, exact, to the fen) at the end of each row, and their sum under the rows. */
  lineTotal?: LineTotal;
}

/** The row properties a line total multiplies, the title of its column and of the sum. */
export interface LineTotal {
  quantity: string;
  unitPrice: string;
  title: I18nText;
  /** Default «合计» / "Total" / "Total". */
  totalTitle?: I18nText;
}

/** A property of a line item: its widget, options (a select of another resource's records, say) and span. */
export interface LineItemField extends Enumerated {
  field: string;
  widget?: 'input' | 'textarea' | 'number' | 'select' | 'radio' | 'switch' | 'date';
  span?: number;
  placeholder?: I18nText;
  /** Shown as text in every mode, never an input (the server ignores it). */
  readOnly?: boolean;
  /** Not shown in these modes. */
  hiddenIn?: FormMode[];
  /** A nested array of objects of this row (the materials of a work item). */
  items?: LineItems;
}

export interface FormSection {
  title?: I18nText;
  /** Grid columns; default 2. */
  columns?: number;
  fields: FormField[];
  when?: Condition;
}

// ---------------------------------------------------------------------------------------
// Detail

export interface DetailField extends Enumerated {
  field: string;
  title?: I18nText;
  render?: ColumnRender;
  precision?: number;
  link?: NavigateTarget;
  span?: number;
  when?: Condition;
}

export interface DetailSection {
  title?: I18nText;
  /** Default 2. */
  columns?: number;
  fields: DetailField[];
}

/** Child records of another resource whose `foreignKey` equals the parent record's `parentField`. */
export interface RelatedList extends TableParts {
  title: I18nText;
  resource: string;
  foreignKey: string;
  /** Default the parent resource's id field, else `id`. */
  parentField?: string;
}

// ---------------------------------------------------------------------------------------
// Page and dashboard

export interface ChildScreen {
  /** Id of the child screen. */
  screen: string;
  /** Tab or block title; default the child's title. */
  title?: I18nText;
  /** Block width in a 24-column grid; default 24. */
  span?: number;
  /** Route parameters handed to the child. */
  params?: ParamMap;
  /**
   * Shown only to a user holding at least one of these menu or element codes (a home page
   * whose blocks differ for a farm and a manufacturer). A convenience of the console: the
   * child's endpoints still guard its data.
   */
  requires?: string[];
}

export interface StatBlock {
  kind: 'stat';
  title: I18nText;
  endpoint: EndpointRef;
  /** Dot path of the number in the reply's `data`. */
  value: string;
  unit?: I18nText;
  icon?: string;
  precision?: number;
  /** The number in words: a duration (3 小时 12 分) or a size (1.5 MB). */
  render?: 'duration' | 'bytes';
  valueUnit?: ValueUnit;
  span?: number;
  /** Labels (and colours) of values that are words, e.g. a state "up" / "down". */
  options?: Option[];
}

export const CHART_TYPES = ['line', 'bar', 'pie'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export interface ChartSeries {
  field: string;
  title: I18nText;
}

export interface ChartBlock {
  kind: 'chart';
  title: I18nText;
  chart: ChartType;
  endpoint: EndpointRef;
  /** Dot path of the row array in `data`; default `data` itself. */
  rows?: string;
  /** line and bar: the category field and the series. */
  x?: string;
  series?: ChartSeries[];
  /** pie: the slice name and value fields. */
  name?: string;
  value?: string;
  stacked?: boolean;
  span?: number;
  /** Pixels; default 300. */
  height?: number;
}

export type DashboardBlock = StatBlock | ChartBlock;

// ---------------------------------------------------------------------------------------
// Screens

export interface RouteAlias {
  route: string;
  /** Default the screen's authority. */
  authority?: string;
  /** Forms: the mode this route opens in when it has no mode parameter (a read-only route of an editable form). */
  mode?: FormMode;
  /**
   * Forms and details: the route parameter holding the record id at this route, when it is
   * not the screen's `idParam` (a spec route naming it differently, e.g.
   * `/farmMaterialsManage/editGoods/:operate/:goodsId/:tankMaterialSummaryId`).
   */
  idParam?: string;
}

export interface ScreenBase {
  $schema: string;
  formatVersion: typeof SCREEN_FORMAT_VERSION;
  /** Incremented on every published change of this document. */
  revision: number;
  id: string;
  title: I18nText;
  description?: I18nText;
  /** The quick guide of the instruction dialog: plain text, paragraphs separated by a blank line. */
  help?: I18nText;
  /** React-router pattern, e.g. "/bigData-kms/addPlantRules/:operate/:id". Absent: only embedded or opened by an action. */
  route?: string;
  /** The same screen at further routes (one tab each), e.g. a section and its legacy twin. */
  aliases?: RouteAlias[];
  /** The menu code that grants this screen; `*` (SIGNED_IN): any signed-in user. */
  authority: string;
  icon?: string;
  /** Keep the screen's state when its tab is left and revisited. */
  keepAlive?: boolean;
  /** Not listed in menus or breadcrumbs (routes reached by actions). */
  hidden?: boolean;
  /**
   * Readable without a session (articles before login): routed outside the session gate
   * and the console layout. Every route must be a public path of runtime/routing/access.ts.
   */
  public?: boolean;
  /** Shown after login without the console's menu, top bar and tabs (a full-screen map). */
  fullScreen?: boolean;
  /** Name of the resource document the screen is bound to. */
  resource?: string;
  /**
   * Names the record a form (edit, show) or a detail shows: `{field}` placeholders filled
   * from the loaded record. Default `{<displayField>}` of the resource. The tab, the
   * breadcrumb, the heading and the browser title then read e.g. 编辑种植规则 · 东北水稻规范
   * (runtime/screens/screen-title.ts).
   */
  recordTitle?: I18nText;
}

export interface TableScreen extends ScreenBase, TableParts {
  kind: 'table';
  /** A page endpoint (reply `{rows,total,pageIndex,pageSize}`) when there is no resource. */
  endpoint?: EndpointRef;
}

export interface FormScreen extends ScreenBase {
  kind: 'form';
  /** Route parameter holding add | edit | show; default "operate". */
  modeParam?: string;
  /** Route parameter holding the record id; default "id". */
  idParam?: string;
  /** Mode when the route has no mode parameter (embedded or opened by an action without one); default add. */
  defaultMode?: FormMode;
  sections: FormSection[];
  /**
   * The record schema when the form is not bound to a resource (a call of its own, e.g.
   * users or menus): the same bounded draft-07 subset as a resource's `record`, with
   * `x-title` labels. Then `endpoints` say where to load and save.
   */
  record?: RecordSchema;
  /** Endpoints replacing the resource's read / create / update. */
  endpoints?: { load?: EndpointRef; create?: EndpointRef; update?: EndpointRef };
  /** Data sets a save changes besides the resource (see CallAction.announces). */
  announces?: string[];
  /** After a successful submit: go back (default), stay, or navigate. */
  afterSubmit?: 'back' | 'stay' | NavigateTarget;
  /**
   * Values an add starts from, read from the route or the query (the group of
   * /farmPlantGroup/makePlantPlan/:id); a number or integer property gets a number.
   */
  initial?: ParamMap;
  /** Extra actions in the form's footer, tested against the record. */
  actions?: Action[];
  /** A live preview of what saving would make, drawn by a widget under the form (add and edit). */
  preview?: FormPreview;
}

/**
 * A form's live preview: while the fields of `requires` are filled and valid, the form's
 * values (with `body` added) are sent to `endpoint` after a pause in typing, and the reply's
 * data is handed to the manifest's widget `widget` (WidgetProps.data). A refusal of the
 * call is shown in place as the server's sentence; the widget's chunk is loaded only once a
 * preview is shown.
 */
export interface FormPreview {
  /** A name of the widget manifest (runtime/schema/widget-names.ts). */
  widget: string;
  /** Called with the form's values as its body (POST, PUT or PATCH), e.g. a generator's dry run. */
  endpoint: EndpointRef;
  /** Values added to the form's values, e.g. `{ "preview": { "value": true } }`. */
  body?: ParamMap;
  /** Fields that must be filled and valid before the call; default the record's required fields. */
  requires?: string[];
  /** Heading of the preview (what it shows). */
  title: I18nText;
  /** A sentence under the heading (e.g. that nothing is stored before saving). */
  help?: I18nText;
  /** The widget's configuration (WidgetProps.config). */
  props?: Record<string, unknown>;
  /** Pause after the last change before the call; default 400 ms. */
  debounceMs?: number;
  /**
   * A property of the record that keeps what the widget hands back (WidgetProps.adjust, e.g.
   * work items moved on the timeline): sent with every preview call and with the save, and
   * cleared when a field of `requires` changes (the preview it adjusted is gone).
   */
  adjustments?: string;
}

export interface DetailScreen extends ScreenBase {
  kind: 'detail';
  /** Route parameter holding the record id; default "id". */
  idParam?: string;
  /** Endpoint replacing the resource's read. */
  load?: EndpointRef;
  sections: DetailSection[];
  related?: RelatedList[];
  actions?: Action[];
}

export interface PageScreen extends ScreenBase {
  kind: 'page';
  /** `steps`: one child at a time with previous / next, resumed at the step last shown (a set-up wizard). */
  layout: 'tabs' | 'blocks' | 'steps';
  children: ChildScreen[];
}

export interface DashboardScreen extends ScreenBase {
  kind: 'dashboard';
  blocks: DashboardBlock[];
}

export interface WidgetScreen extends ScreenBase {
  kind: 'widget';
  /** A name from the widget registry (runtime/schema/widget-names.ts). */
  widget: string;
  /** Handed to the widget as they are; the widget documents its own props. */
  props?: Record<string, unknown>;
  /** Route or query values handed to the widget as props. */
  params?: ParamMap;
}

export type Screen = TableScreen | FormScreen | DetailScreen | PageScreen | DashboardScreen | WidgetScreen;
export type ScreenOfKind<K extends ScreenKind> = Extract<Screen, { kind: K }>;

/** The authority of a screen every signed-in user may open (no menu grants it, e.g. /qiqihaer). */
export const SIGNED_IN = '*';

/** Every route a screen answers on, with the authority guarding each. */
export function screenRoutes(screen: Screen): { route: string; authority: string }[] {
  const out: { route: string; authority: string }[] = [];
  if (screen.route) out.push({ route: screen.route, authority: screen.authority });
  for (const a of screen.aliases ?? []) out.push({ route: a.route, authority: a.authority ?? screen.authority });
  return out;
}

/** The `:name` parameters of a route pattern, in order (an optional `:name?` included). */
export function routeParams(pattern: string): string[] {
  return pattern
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1).replace(/\?$/, ''));
}

/**
 * The absolute pattern of a navigation target: `to` itself when it starts with "/", else
 * `to` under the first segment (the section) of `currentRoute`.
 */
export function resolveRoute(to: string, currentRoute: string | undefined): string {
  if (to.startsWith('/')) return to;
  const section = currentRoute?.split('/').filter(Boolean)[0];
  return section ? `/${section}/${to}` : `/${to}`;
}

/** A route pattern with its parameters filled (URI-encoded); null when one is missing. */
export function fillRoute(pattern: string, params: Record<string, unknown>): string | null {
  const out: string[] = [];
  for (const seg of pattern.split('/')) {
    if (!seg.startsWith(':')) {
      out.push(seg);
      continue;
    }
    const optional = seg.endsWith('?');
    const name = seg.slice(1, optional ? -1 : undefined);
    const v = params[name];
    if (v === undefined || v === null || v === '') {
      if (optional) continue;
      return null;
    }
    out.push(encodeURIComponent(String(v)));
  }
  return out.join('/') || '/';
}

/** `:add` means "add" of `authority` (the route being shown); a full code stays as it is. */
export function resolveElementCode(code: string, authority: string): string {
  return code.startsWith(':') ? `${authority}${code}` : code;
}

/** The route parameter holding the record id of a form or detail shown at `routePattern` (an alias may name its own). */
export function idParamOf(screen: { idParam?: string; aliases?: RouteAlias[] }, routePattern?: string): string {
  return screen.aliases?.find((a) => a.route === routePattern)?.idParam ?? screen.idParam ?? 'id';
}

/** The form mode named by a route's mode parameter, or the screen's default. */
export function formModeOf(screen: FormScreen, params: Record<string, string | undefined>, routePattern?: string): FormMode | null {
  const raw = params[screen.modeParam ?? 'operate'];
  if (raw === undefined) return screen.aliases?.find((a) => a.route === routePattern)?.mode ?? screen.defaultMode ?? 'add';
  return (FORM_MODES as readonly string[]).includes(raw) ? (raw as FormMode) : null;
}
