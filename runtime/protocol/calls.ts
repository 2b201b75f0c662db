/**
 * The console's own calls that are not resource operations (spec sections 7.1 and 7.3):
 * signing in and out, the user's info and menus, the shell's base info, settings, notice
 * count, password change and registration. One table, by name: the shell asks the data
 * provider for a call by its name (DataProvider.call) and the session's auth calls read
 * it too, so no module of the shell, the screens or the session writes an /api path
 * (tests/unit/layers.test.ts). Server URLs never change; this table names them.
 */
import type { HttpMethod } from './operations.ts';

export interface CallRoute {
  method: HttpMethod;
  path: string;
}

export const NAMED_CALLS = {
  /** POST {username, password} → the token. */
  signIn: { method: 'POST', path: '/api/auth/jwt/token' },
  /** POST ?token: ends the session on the server. */
  signOut: { method: 'POST', path: '/api/auth/jwt/invalid' },
  /** GET ?token: the signed-in user. */
  userInfo: { method: 'GET', path: '/api/admin/user/front/info' },
  /** GET ?token: the user's menu tree with element codes. */
  menuTree: { method: 'GET', path: '/api/admin/user/front/menus2' },
  /** GET: the phone, logo and city of the signed-in user. */
  baseInfo: { method: 'GET', path: '/api/admin/user/front/baseInfo' },
  /** GET: the console settings from the server configuration (public). */
  consoleConfig: { method: 'GET', path: '/api/console/config' },
  /** GET ?userId: the number of unread notices. */
  unreadNotices: { method: 'GET', path: '/api/coverfield/notice/notReadNumber' },
  /** PUT ?phone: an SMS code for a password change. */
  sendChangePasswordCode: { method: 'PUT', path: '/api/admin/user/front/sms/sendChangePassword' },
  /** POST ?phone&password&code. */
  changePassword: { method: 'POST', path: '/api/admin/user/front/changePassword' },
  /** PUT ?phone: an SMS code for a registration (public). */
  sendRegistrationCode: { method: 'PUT', path: '/api/admin/user/front/sms/send' },
  /** POST {username, name, phone, code, password, orgName, orgType, …}: a registration request (public). */
  register: { method: 'POST', path: '/api/admin/user/front/regist' },
  // The schema studio (docs/studio.md; menu studioDocuments unless said otherwise).
  /** GET: every document with its status (bundled, published revision N, the caller's draft). */
  studioDocuments: { method: 'GET', path: '/api/studio/documents' },
  /** GET ?file: the bundled, published and draft content of one document. */
  studioDocument: { method: 'GET', path: '/api/studio/document' },
  /** PUT {file, content, baseRevision}: the caller's private draft. */
  studioSaveDraft: { method: 'PUT', path: '/api/studio/draft' },
  /** DELETE ?file: drops the caller's draft. */
  studioDeleteDraft: { method: 'DELETE', path: '/api/studio/draft' },
  /** POST {file, content}: the publish gate and the render check, nothing stored. */
  studioCheck: { method: 'POST', path: '/api/studio/check' },
  /** POST {file, content, baseRevision, comment} (element studioDocuments:publish). */
  studioPublish: { method: 'POST', path: '/api/studio/publish' },
  /** GET ?file: the revisions, newest first (0 = bundled). */
  studioRevisions: { method: 'GET', path: '/api/studio/revisions' },
  /** GET ?file&revision: one revision's content. */
  studioRevision: { method: 'GET', path: '/api/studio/revision' },
  /** POST {file, revision, baseRevision, comment} (element studioDocuments:rollback). */
  studioRollback: { method: 'POST', path: '/api/studio/rollback' },
  /** GET: the coverage report (menu studioCoverage). */
  studioCoverage: { method: 'GET', path: '/api/studio/coverage' },
  /** GET: roles to preview as, intersected with the caller's codes. */
  studioViewAs: { method: 'GET', path: '/api/studio/view-as' },
  /** GET: the documents published from the schema studio, {generation, documents: [{file, type, revision, content}]}. */
  publishedSchemas: { method: 'GET', path: '/api/schemas/published' },
  /** GET: server-sent events, `published` {generation, file, revision} on every publish (DataProvider.subscribe). */
  schemaEvents: { method: 'GET', path: '/api/schemas/events' },
  /** GET ?kinds: the units of the caller's farms with their devices' live state and readings (docs/devices.md). */
  /** GET ?layers: every shape of the caller's farms as GeoJSON (docs/land-and-maps.md). */
  landMap: { method: 'GET', path: '/api/land/map' },
  /** GET: the farm map's devices layer (positions, online, alarms, last readings). */
  landDevices: { method: 'GET', path: '/api/land/devices' },
  /** POST {mode: preview | confirm, content (Base64), fileName, layer}: a land file's plan, then its writes. */
  landImport: { method: 'POST', path: '/api/land/import' },
  /** GET ?format=geojson|kml: the farm's land as a file ({fileName, mediaType, content}). */
  landExport: { method: 'GET', path: '/api/land/export' },
  /** GET: the caller's open tasks and unread notices for /dashboard (docs/harvest-sales-trace.md). */
  dashboardMine: { method: 'GET', path: '/api/dashboard/mine' },
  /** GET: the regional big screen's figures for the configured city (/qiqihaer). */
  bigScreenRegion: { method: 'GET', path: '/api/bigScreen/region' },
  deviceUnits: { method: 'GET', path: '/api/devices/units' },
  /** POST {deviceId, action, params, menu}: a command; pending until the device acknowledges. */
  deviceCommand: { method: 'POST', path: '/api/devices/commands' },
  /** GET ?id: one command's outcome. */
  deviceCommandDetail: { method: 'GET', path: '/api/devices/commands/detail' },
  /** GET ?deviceId&scenarioId&pageIndex&pageSize: commands, newest first. */
  deviceCommands: { method: 'GET', path: '/api/devices/commands/page' },
  /** GET ?kind&places&from&to&bucket: readings in time buckets, one series per place. */
  deviceReadings: { method: 'GET', path: '/api/devices/readings/series' },
  /** GET ?kind&places&from&to&format (csv | xlsx): every stored reading of the range, as a file. */
  deviceReadingsRaw: { method: 'GET', path: '/api/devices/readings/raw' },
  /** GET (server-sent events): state, readings, command outcomes and alarms of the caller's farms. */
  deviceEvents: { method: 'GET', path: '/api/devices/events' },
  /** GET: the farm's weather stations and the forecast provider's answer. */
  deviceWeather: { method: 'GET', path: '/api/devices/weather' },
  /** GET ?pageIndex&pageSize; POST {…} creates; PUT {id, …} changes; DELETE ?id. */
  deviceScenarios: { method: 'GET', path: '/api/devices/scenarios/page' },
  deviceScenarioCreate: { method: 'POST', path: '/api/devices/scenarios' },
  deviceScenarioUpdate: { method: 'PUT', path: '/api/devices/scenarios' },
  deviceScenarioDelete: { method: 'DELETE', path: '/api/devices/scenarios' },
  /** POST {id, enabled}. */
  deviceScenarioEnabled: { method: 'POST', path: '/api/devices/scenarios/enabled' },
  /** GET ?open&pageIndex&pageSize. */
  deviceAlarms: { method: 'GET', path: '/api/devices/alarms/page' },
  /** GET: system build — gateways and devices (channels, placement, coordinates), no secrets. */
  deviceBuild: { method: 'GET', path: '/api/devices/build' },
  /** POST {menu, code, name, place}: a gateway, its MQTT password answered once; PUT {menu, id, …}; DELETE ?menu&id. */
  deviceGatewayCreate: { method: 'POST', path: '/api/devices/build/gateways' },
  deviceGatewayUpdate: { method: 'PUT', path: '/api/devices/build/gateways' },
  deviceGatewayDelete: { method: 'DELETE', path: '/api/devices/build/gateways' },
  /** POST {menu, id}: a new MQTT password for the gateway, answered once. */
  deviceGatewaySecret: { method: 'POST', path: '/api/devices/build/gateways/secret' },
  /** POST {menu, code, name, kind, gatewayId | direct, …}: a device and its MQTT identity; PUT {menu, id, …}; DELETE ?menu&id. */
  deviceCreate: { method: 'POST', path: '/api/devices/build/devices' },
  deviceUpdate: { method: 'PUT', path: '/api/devices/build/devices' },
  deviceDelete: { method: 'DELETE', path: '/api/devices/build/devices' },
  /** GET ?report=seedling|insect|disaster&from&to&place: field-condition reports per day, week or month. */
  fieldReportTrend: { method: 'GET', path: '/api/devices/fieldReports/trend' },
  // Files of file fields (docs/resources.md, "Files"): read with the record's authority.
  /** POST ?resource&field, multipart: an upload for a record's file field, answered with its id. */
  fileUpload: { method: 'POST', path: '/api/files' },
  /** GET /{id}: the file; /{id}/thumbnail: an image's thumbnail; /{id}/meta: name, type, size. */
  fileRead: { method: 'GET', path: '/api/files' },
} as const satisfies Record<string, CallRoute>;

export type NamedCall = keyof typeof NAMED_CALLS;

/** The method and URL of a named call. */
export function callRoute(name: NamedCall): { method: HttpMethod; url: string } {
  const { method, path } = NAMED_CALLS[name];
  return { method, url: path };
}
