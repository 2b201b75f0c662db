/**
 * The services contract: what the screens and the shell may ask of the console, and the
 * only thing they know of it. `runtime/app/` implements it (app/services.ts) and provides
 * it (ServicesContext); nothing below the app imports `runtime/app/`
 * (tests/unit/layers.test.ts). Layers, bottom up: protocol → services contract →
 * screens and shell → app (docs/architecture.md, "Runtime layers").
 */
import type { createStore } from 'jotai';
import type { i18n as I18n } from 'i18next';
import type { Authority, ResourceAccess, ResourceAction } from '../access/can.ts';
import type { HttpClient, QueryValue } from '../http/client.ts';
export type { FileReply } from '../http/client.ts';
import type { NotifierSlot } from '../http/notifier-slot.ts';
import type { Language } from '../i18n/languages.ts';
import type { NamedCall } from '../protocol/calls.ts';
import type { Envelope } from '../protocol/envelope.ts';
import type { IMPORT_OPERATION, ResourceOperation } from '../protocol/operations.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { EndpointRef } from '../schema/screen.ts';
import type { ValueContext } from '../schema/values.ts';
import type { AuthApi } from '../session/auth-api.ts';
import type { SessionPersistence } from '../session/persistence.ts';
import type { Session } from '../session/session.ts';

export type Navigate = (path: string) => void;

/**
 * What a renderer asks data of: an endpoint reference of a screen document (resolved
 * against `ctx`, a resource operation defaulting to `screenResource`), or an operation of
 * a resource by name (with the record id for read, update and delete), or a server
 * dictionary's items.
 */
export type DataSource =
  | { endpoint: EndpointRef; ctx: ValueContext; screenResource?: string }
  | { resource: string; operation: ResourceOperation | typeof IMPORT_OPERATION; id?: unknown }
  /** A declared transition of one record of a resource (POST {base}/:id/transitions/:name). */
  | { resource: string; transition: string; id: unknown }
  /** The items of a server dictionary (any signed-in user). */
  | { dictionary: string };

export interface DataRequest {
  /** The documents the source's resources are read from. */
  registry: SchemaRegistry;
  source: DataSource;
  /** Query parameters (a read) — added to the endpoint's own. */
  params?: Record<string, QueryValue>;
  /** The request body (a write). */
  body?: unknown;
  /** The caller shows refusals itself (RequestOptions.quiet). */
  quiet?: boolean;
  /** A longer wait than the client's default (an import of thousands of rows). */
  timeoutMs?: number;
}

/** The parameters of a named call (runtime/protocol/calls.ts). */
export interface CallOptions {
  /** Query parameters. */
  params?: Record<string, QueryValue>;
  /** The request body. */
  body?: unknown;
  /** The caller shows refusals itself (RequestOptions.quiet). */
  quiet?: boolean;
  /** The answer is a file: the envelope's data is `{ blob, fileName }` (RequestOptions.asFile). */
  asFile?: boolean;
  /** A longer wait than the client's time-out (a large export). */
  timeoutMs?: number;
}

/**
 * The one place that turns a source into a URL (runtime/protocol/operations.ts for
 * resources, runtime/screens/endpoints.ts for a document's references). A source whose
 * parameters are missing resolves to nothing: `key` answers null and `query` / `mutate`
 * are not to be called (the caller disables what it cannot call).
 */
export interface DataProvider {
  /** An opaque identity of the request (for caching and de-duplication); null when it cannot be made. */
  key(request: Pick<DataRequest, 'registry' | 'source'>): string | null;
  /** Reads: the reply's data. */
  query<T = unknown>(request: DataRequest): Promise<T>;
  /** Writes (and calls): the whole reply, whose message the caller may show. */
  mutate<T = unknown>(request: DataRequest): Promise<Envelope<T>>;
  /**
   * One of the console's own calls by its name (the shell's base info, notice count,
   * password change, registration): the whole reply. Needs no registry, so the login
   * page makes its calls without the screens' code.
   */
  call<T = unknown>(name: NamedCall, options?: CallOptions): Promise<Envelope<T>>;
  /**
   * A named call that is a server-sent event stream (e.g. `deviceEvents`): `onEvent` gets
   * each event's name and parsed data; after a drop it reconnects by itself, and `onOpen`
   * runs at each (re)connection, so the caller reads again what it may have missed.
   * Absent where the console cannot stream (tests' providers).
   */
  subscribe?(name: NamedCall, handlers: EventHandlers): EventSubscription;
}

export interface EventHandlers {
  onEvent(type: string, data: unknown): void;
  onOpen?(): void;
  /** The stream dropped; it reconnects after a pause. */
  onDrop?(): void;
}

export interface EventSubscription {
  close(): void;
}

/** The console's one authority check (runtime/access/can.ts) over the session's menu and element codes. */
export interface AccessChecks {
  can(menuCode: string, action?: string): boolean;
  can(authority: Authority): boolean;
  can(resource: ResourceAccess, action: ResourceAction): boolean;
}

/**
 * Product rules the runtime applies without knowing them: given by the product
 * (product/profile.ts), handed in by the app.
 */
export interface ProductProfile {
  /** Reachable without a session (compared case-insensitively), besides the login and start pages. */
  publicPaths: readonly string[];
  /** Any path containing one of these is public too (e.g. articles readable before login). */
  publicPathFragments: readonly string[];
  /** The notice screen the top bar's badge links to. */
  noticePath: string;
  /** Menu codes hidden from an account without a farm (the local haveFarm flag at '0'). */
  menuCodesHiddenWithoutFarm: readonly string[];
}

/** Everything the console shares outside React's tree: one instance per page. */
export interface ConsoleServices {
  store: ReturnType<typeof createStore>;
  i18n: I18n;
  persistence: SessionPersistence;
  /** Notifications: the HTTP client's boxes and messages, antd's once it has loaded. */
  notifier: NotifierSlot;
  /** The transport under `data` and `auth`; the shell and the screens call through `data`. */
  http: HttpClient;
  data: DataProvider;
  access: AccessChecks;
  auth: AuthApi;
  session: Session;
  profile: ProductProfile;
  /** Router navigation once the router is mounted; a full page load before that. */
  setNavigator(navigate: Navigate): () => void;
  navigate: Navigate;
  setLanguage(language: Language): Promise<void>;
}
