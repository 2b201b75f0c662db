/**
 * The widget API: bespoke screens (maps, equipment control, planting timelines) are React
 * components in the top-level `widgets/` folder, listed by name in `widgets/manifest.ts`
 * with a loader each. A `widget` screen names one of them (runtime/schema/widget-names.ts,
 * which schemas:check enforces and tests/unit/widget-manifest.test.ts holds equal to the
 * manifest's names). A widget depends on this module (and the services contract) only;
 * the runtime never imports a widget's internals: the app installs the manifest and the
 * widget host loads a widget through its loader.
 */
import type { ComponentType } from 'react';
import type { Lang } from '../schema/texts.ts';
import type { SchemaRegistry } from '../schema/registry.ts';
import type { ConsoleServices } from '../services/contract.ts';

export interface WidgetProps<C extends Record<string, unknown> = Record<string, unknown>> {
  /** Its configuration from the screen document: the screen's `props`, with its `params` resolved and added. */
  config: C;
  /** Parameters of the route the widget is shown at. */
  route: Record<string, string | undefined>;
  /** The menu code of that route (element codes like ":control" resolve against it). */
  authority: string;
  /** The console's services (data, access checks, notifications). */
  services: ConsoleServices;
  /** The documents the data provider resolves a widget's resources against. */
  registry: SchemaRegistry;
  /** The console's current language; the widget re-renders when it changes. */
  language: Lang;
  /**
   * Data handed to the widget directly instead of read by it: the reply of a form's preview
   * call (a screen's `preview`, docs/schema-language.md). Absent on a widget screen. A
   * widget given data draws it read-only and reads nothing itself.
   */
  data?: unknown;
  /**
   * Given with `data` when the host keeps what the widget changes in it (a form preview's
   * `adjustments`): the current value, and `change` to replace it. `change` resolves once
   * `data` reflects the new value (the host asked its server again), and rejects with an
   * Error whose message is the server's sentence when refused, the value then taken back.
   * Absent: the data is read-only.
   */
  adjust?: WidgetAdjust;
}

export interface WidgetAdjust {
  value: unknown;
  change(next: unknown): Promise<void>;
}

export type WidgetComponent = ComponentType<WidgetProps>;

/** Loads a widget's module (a chunk of its own); its default export is the component. */
export type WidgetLoader = () => Promise<{ default: WidgetComponent }>;

/**
 * Every widget name the schema language accepts, with its loader; null: a name documents
 * may use whose implementation this build does not include (its screen says so).
 */
export type WidgetManifest = Readonly<Record<string, WidgetLoader | null>>;

let manifest: WidgetManifest = {};

/** The app installs the product's manifest (runtime/app/default-features.ts). */
export function installWidgets(next: WidgetManifest): void {
  manifest = next;
}

export type WidgetLookup =
  | { state: 'ready'; load: WidgetLoader }
  /** A name of the manifest whose implementation this build does not include. */
  | { state: 'missing' }
  /** A name outside the manifest (only a document that skipped validation can carry one). */
  | { state: 'unknown' };

export function widgetFor(name: string): WidgetLookup {
  if (!Object.hasOwn(manifest, name)) return { state: 'unknown' };
  const load = manifest[name];
  return load ? { state: 'ready', load } : { state: 'missing' };
}

/** A failed request of the data provider, told apart from a widget's own errors. */
export { isHttpError } from '../http/errors.ts';

/**
 * A CSV document whose cells a spreadsheet never evaluates (runtime/format/csv.ts, the one
 * neutraliser of every CSV the console and the server write): widgets that export use it.
 */
export { csvDocument } from '../format/csv.ts';

/**
 * Areas and lengths on the WGS 84 ellipsoid (runtime/format/geodesic.ts): the map widget
 * shows the area the server stores (server/land/geometry.ts computes it with the same functions).
 */
export { areaUnits, lineLength, polygonArea, SQUARE_METRES_PER_HECTARE, SQUARE_METRES_PER_MU } from '../format/geodesic.ts';

/**
 * The console's one format (runtime/format/locale.ts): dates, times, numbers, quantities and
 * money in the user's language. Widgets show times through it, never `toLocaleString()`.
 */
export { formatDate, formatDateTime, formatTime, formatDecimal, formatQuantity, formatMoney } from '../format/locale.ts';

/**
 * The devices' wire types and their action and status lists, shared with the server
 * (runtime/protocol/devices.ts): the equipment-control and map widgets read the units and
 * the event stream with the types the server writes them with.
 */
export { ACTION_OF_KIND, COMMAND_STATUSES, DEVICE_ACTIONS } from '../protocol/devices.ts';
export type { CommandRef, CommandStatus, DeviceAction, DeviceStreamEvent, DeviceUnitsReply, DeviceView, UnitAlarm, UnitView } from '../protocol/devices.ts';
