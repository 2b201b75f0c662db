/**
 * The words of a resource document: its TypeScript types and the engine's fixed names and
 * limits. Types and constants only, so that any module (the console's screens among them)
 * can import them without the meta-schema validator.
 */
import type { LocalizedText } from '../../protocol/texts.ts';
import type { CrossFieldRule } from '../cross-rules.ts';
import type { FieldMessages } from '../messages.ts';
import type { StateMachine, Transitions } from '../transitions.ts';
import type { PublicRead } from '../public-read.ts';
import type { ResourceOperation } from '../../protocol/operations.ts';

export type { CrossFieldRule } from '../cross-rules.ts';

export const RESOURCE_FORMAT_VERSION = 1;

export type ResourceScope = 'farm' | 'group' | 'platform';
/** The filters a resource document's searchable fields declare (a screen's filters use FILTER_OPS, keyword excepted). */
export const FILTER_KINDS = ['eq', 'like', 'range', 'in', 'keyword'] as const;
export type FilterKind = (typeof FILTER_KINDS)[number];
export type ScalarType = 'string' | 'number' | 'boolean';

/** A text in every language (runtime/protocol/texts.ts). */
export type LocalText = LocalizedText;

/** A record property: the draft-07 subset that the meta-schema allows. */
export interface FieldSchema {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  title?: string;
  description?: string;
  'x-title'?: LocalText;
  'x-description'?: LocalText;
  /** The field's own message per rule, in place of the generated one (docs/validation.md). */
  'x-messages'?: FieldMessages;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: 'date' | 'date-time' | 'time' | 'email' | 'uri' | 'uuid';
  enum?: (string | number)[];
  'x-enumTitles'?: LocalText[];
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  items?: FieldSchema;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  additionalProperties?: false;
  default?: unknown;
  /** A string holding a GeoJSON geometry the land module validates (docs/land-and-maps.md). */
  'x-geometry'?: GeometryFieldSpec;
  /** An array of ids of uploaded files (docs/schema-language.md, "Files"). */
  'x-file'?: FileFieldSpec;
}

/** The MIME types a file field may accept; the server recognises each by its content, never by its name. */
export const FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** What a file field accepts: its types and the size of one file; its `maxItems` is the number of files. */
export interface FileFieldSpec {
  accept: FileType[];
  /** One file's size at most, in bytes (1 KiB .. 20 MiB; the server's FILE_MAX_BYTES caps it further). */
  maxBytes: number;
}

/** What a geometry field accepts: its kinds, where its area in mu goes, how much two shapes may overlap. */
export interface GeometryFieldSpec {
  kinds: ('Point' | 'LineString' | 'Polygon')[];
  /** A number property that receives the polygon's area in mu, computed by the server. */
  areaField?: string;
  /** Two polygons of this resource on one farm may share at most this percentage of the smaller one's area; absent: no overlap rule. */
  overlapTolerancePercent?: number;
  /** A record without a shape must state its area in `areaField` (a plot is registered by its area before it is drawn). */
  areaRequired?: boolean;
}

export interface RecordSchema {
  type: 'object';
  additionalProperties: false;
  required?: string[];
  properties: Record<string, FieldSchema>;
}

export interface SearchableField {
  /** The property filtered (and the query parameter); of a keyword filter, the parameter only. */
  field: string;
  filter: FilterKind;
  /** keyword filters: the string properties any of which must contain the value. */
  fields?: string[];
}

/**
 * Records kept in a table of their own instead of the engine's JSON table
 * (docs/resources.md, "Table-backed storage").
 */
export interface TableStorage {
  table: string;
  /** Record property → column; every property has one. */
  columns: Record<string, string>;
  /** Column → value that selects this resource's rows of a shared table, written on insert. */
  fixed?: Record<string, string | number | boolean>;
  /** Columns of the owner: farmId "id" makes every row its own farm (rows that are organisations). */
  owner?: { farmId?: string; blocId?: string };
  /** Names in the operation log: `<action>.create` on `resource`. */
  audit?: { action: string; resource: string };
}

/** The meta columns every table behind a resource has (the engine's id, version, times and authors). */
export const TABLE_META_COLUMNS = ['id', 'version', 'created_at', 'updated_at', 'created_by', 'updated_by'] as const;

export interface ResourceDocument {
  $schema?: string;
  name: string;
  formatVersion: 1;
  revision: number;
  title: LocalText;
  description?: LocalText;
  basePath: string;
  authority: string;
  authorityAliases?: string[];
  /** Menu codes that grant reading only (selects and related lists of other screens). */
  readAuthorities?: string[];
  /** Element codes of the writes it serves (create, update, delete), and of the transitions under further keys. */
  elements: Record<string, string>;
  /** The plain operations served, when not all six (runtime/protocol/operations.ts). */
  operations?: ResourceOperation[];
  scope: ResourceScope;
  record: RecordSchema;
  displayField: string;
  /** A required string property naming a record within its owner: imports may update by it (docs/import.md). */
  importKey?: string;
  defaultSort: string;
  searchable: SearchableField[];
  sortable: string[];
  references?: Record<string, { resource: string }>;
  /** Rules across fields (docs/validation.md), enforced on every write. */
  rules?: CrossFieldRule[];
  /** The state field and its values (runtime/schema/transitions.ts). */
  states?: StateMachine;
  /** Named changes of state, each with its element code. */
  transitions?: Transitions;
  /** Reads without a token of the records a filter selects (runtime/schema/public-read.ts). */
  publicRead?: PublicRead;
  /** PUT changes only the properties sent; `version` optional (checked when sent). */
  partialUpdate?: boolean;
  /** A table of its own instead of the JSON table. */
  storage?: TableStorage;
}

/**
 * Properties that every reply row carries next to the record's own. They are read-only:
 * a write may send them back (a form posting the row it loaded) and they are ignored,
 * except `version` on update (the optimistic-concurrency token), and `farmId` / `blocId`
 * on the creation of a farm- / group-scoped record (the owner).
 */
export const META_FIELDS = ['id', 'version', 'farmId', 'farmName', 'blocId', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'labels'] as const;
export type MetaField = (typeof META_FIELDS)[number];

/** Sortable on every resource without being declared. */
export const IMPLICIT_SORTABLE = ['id', 'createdAt', 'updatedAt'] as const;

/** Query parameters of the page query that are not filters. */
export const PAGE_PARAMS = ['pageIndex', 'pageSize', 'sort'] as const;
export { MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../../protocol/page.ts';
export const MAX_IN_VALUES = 100;
export const MAX_ID = 2147483647;

export interface DocumentProblem {
  file: string;
  /** JSON pointer into the document ("" for the whole document). */
  pointer: string;
  message: string;
}

export interface DocumentSource {
  file: string;
  text: string;
}
