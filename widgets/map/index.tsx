/**
 * The map widget behind the runtime's widget API (the ONE file of the widget that imports
 * the runtime): the farm's shapes from GET /api/land/map on an OpenLayers map (farm-map.ts),
 * a base map when the server's configuration names a tile URL (MAP_TILE_URL), and the
 * actions the screen document allows and the user's element codes permit. Shapes are saved
 * through the resource engine, so the server's geometry rules (server/land) decide, and
 * their refusal is shown as the server words it.
 *
 * Screen props (docs/land-and-maps.md):
 * - layers: which of boundary, plots, greenhouseGroups, greenhouses, facilities (default all)
 * - actions: any of draw, drawPoint, edit, delete, measure (default measure)
 * - resource: the resource a drawn polygon becomes and the edit tool changes (default farmFields)
 * - pointResource: the resource a marked point becomes (default farmFacilities)
 * - defaults: fields of a new record besides name, code and shape (e.g. landType, status)
 * - colourBy: crop or stage (plots)
 * - details: per layer, the route opened by "Details" ({id} is the record's id)
 * - focus: {layer, param}: fit to the record named by that route parameter
 * - centreParams: [lon, lat, zoom] route parameter names (the full-screen /maptalk map)
 * - height: pixels, or "full" for the whole window
 * - toolbar: false hides the tool and layer bar (a small read-only map, e.g. the farm home's)
 * - addElement, editElement, deleteElement: element codes (":add" resolves against the screen's menu code)
 * A `view=lon,lat,zoom` query parameter opens the map at that place (a shared link).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import 'ol/ol.css';
import './map.css';
import { isHttpError, type DeviceStreamEvent, type WidgetProps } from '../../runtime/widgets/api.ts';
import { FarmMap, MAP_LAYERS, type MapLayerName, type MapTool, type PickedFeature } from './farm-map.ts';
import type { ColourBy } from './styles.ts';
import { LandFileTools } from './land-file.tsx';
import { formatArea, formatLength, formatMu, MAP_TEXTS, READING_NAMES, READING_UNITS, type MapLanguage } from './texts.ts';

type Action = 'draw' | 'drawPoint' | 'edit' | 'delete' | 'measure';

const LAYER_OF_RESOURCE: Record<string, MapLayerName> = {
  farmBoundaries: 'boundary',
  farmFields: 'plots',
  greenhouseGroups: 'greenhouseGroups',
  greenhouses: 'greenhouses',
  farmFacilities: 'facilities',
};
const RESOURCE_OF_LAYER = Object.fromEntries(Object.entries(LAYER_OF_RESOURCE).map(([r, l]) => [l, r])) as Record<MapLayerName, string>;

interface MapReply {
  farms: { id: number; name: string }[];
  features: { type: 'FeatureCollection'; features: { id: string; geometry: unknown; properties: Record<string, unknown> }[] };
}

/** A device of the devices layer (GET /api/land/devices), kept live by the devices' event stream. */
interface DevicePoint {
  id: number;
  code: string;
  name: string;
  kind: string;
  model: string;
  place: string;
  lon: number;
  lat: number;
  online: boolean;
  lastSeen: string | null;
  alarms: { id: number; message: string; raisedAt: string }[];
  readings: Record<string, { value: number; ts: string }>;
}

type Panel =
  | { kind: 'none' }
  | { kind: 'picked'; picked: PickedFeature }
  | { kind: 'drawn'; geometry: string; areaM2: number | null; point: boolean }
  | { kind: 'measured'; text: string };

const list = <T extends string>(value: unknown, allowed: readonly T[], fallback: readonly T[]): T[] =>
  Array.isArray(value) ? value.filter((v): v is T => (allowed as readonly string[]).includes(String(v))) : [...fallback];
const withoutShape = ({ geometry: _shape, ...rest }: Record<string, unknown>) => rest;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export default function MapWidget({ config, route, authority, services, registry, language }: WidgetProps) {
  const lang = language as MapLanguage;
  const t = MAP_TEXTS[lang];
  const layers = useMemo(() => list(config.layers, MAP_LAYERS, MAP_LAYERS), [config.layers]);
  const element = useCallback((code: unknown, fallback: string) => {
    const c = str(code) ?? fallback;
    return services.access.can({ elements: [c.startsWith(':') ? `${authority}${c}` : c] });
  }, [services, authority]);
  const actions = useMemo(() => {
    const wanted = list<Action>(config.actions, ['draw', 'drawPoint', 'edit', 'delete', 'measure'], ['measure']);
    // The console offers only what the server would accept from this user.
    return new Set(wanted.filter((a) => a === 'measure' || element(a === 'edit' ? config.editElement : a === 'delete' ? config.deleteElement : config.addElement, a === 'edit' ? ':edit' : a === 'delete' ? ':delete' : ':add')));
  }, [config, element]);
  // Survey files (docs/land-and-maps.md, "Import and export"): `files: ["import", "export"]`;
  // the import needs the server's landBuild:add, the export any map's menu (this one).
  const files = list<'import' | 'export'>(config.files, ['import', 'export'], []);
  const canImport = files.includes('import') && element('landBuild:add', 'landBuild:add');
  const canExport = files.includes('export');
  const resource = str(config.resource) ?? 'farmFields';
  const pointResource = str(config.pointResource) ?? 'farmFacilities';
  const editableLayer = LAYER_OF_RESOURCE[resource];
  const details = (config.details ?? {}) as Partial<Record<MapLayerName, string>>;
  const full = config.height === 'full';
  const height = full ? undefined : typeof config.height === 'number' ? config.height : 560;

  const target = useRef<HTMLDivElement>(null);
  const farmMap = useRef<FarmMap | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed' | 'empty'>('loading');
  const [tileUrl, setTileUrl] = useState<string | null>(null);
  const [visible, setVisible] = useState<Set<MapLayerName>>(() => new Set(layers));
  const [colourBy, setColourBy] = useState<ColourBy>(config.colourBy === 'stage' ? 'stage' : 'crop');
  const [tool, setTool] = useState<MapTool>('select');
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [draftName, setDraftName] = useState('');
  const [draftCode, setDraftCode] = useState('');
  // The devices layer: null until read; refused (no devices menu) hides the layer.
  const [devices, setDevices] = useState<Map<number, DevicePoint> | null>(null);
  const [devicesRefused, setDevicesRefused] = useState(false);
  // The map's selection (`layer.id`), on the map's element: what the edit tool changes.
  const [selected, setSelected] = useState('');

  // The base map's URL from the server's configuration ('' = none: the offline map).
  useEffect(() => {
    let alive = true;
    services.data
      .call<{ tileUrl?: string }>('consoleConfig', { quiet: true })
      .then((env) => alive && setTileUrl(typeof env.data?.tileUrl === 'string' ? env.data.tileUrl : ''))
      .catch(() => alive && setTileUrl(''));
    return () => {
      alive = false;
    };
  }, [services]);

  const refused = (e: unknown) => (isHttpError(e) ? (e.fieldErrors[0]?.message ?? e.serverMessage ?? e.message) : String(e));

  // The map itself, once the configuration is known; the shapes follow.
  // biome-ignore lint/correctness/useExhaustiveDependencies: built once per tile URL; later changes go through the FarmMap methods
  useEffect(() => {
    if (tileUrl === null || !target.current) return;
    const fm = new FarmMap(target.current, {
      tileUrl: tileUrl || undefined,
      layers,
      colourBy,
      editableLayer,
      northLabel: t.north,
      onPick: (picked) => {
        setSelected(picked ? `${picked.layer}.${picked.id}` : '');
        setRefusal(null);
        setPanel(picked ? { kind: 'picked', picked } : { kind: 'none' });
      },
      onDrawn: (geometry, areaM2) => {
        setRefusal(null);
        setDraftName('');
        setDraftCode('');
        setPanel({ kind: 'drawn', geometry, areaM2, point: areaM2 === null });
      },
      onModified: (picked, geometry, _areaM2, revert) => void saveShape(picked, geometry, revert),
      onMeasured: (kind, value) => setPanel({ kind: 'measured', text: kind === 'length' ? `${t.distance} ${formatLength(value, lang)}` : `${t.area} ${formatArea(value, lang)}` }),
    });
    farmMap.current = fm;
    const abort = new AbortController();
    const query: Record<string, string> = { layers: layers.join(',') };
    services.data
      .call<MapReply>('landMap', { params: query, quiet: true })
      .then((env) => {
        if (abort.signal.aborted) return;
        const features = env.data?.features?.features ? env.data.features : { type: 'FeatureCollection' as const, features: [] };
        fm.setFeatures(features);
        const fitted = placeView(fm);
        setState(features.features.length ? 'ready' : fitted ? 'ready' : 'empty');
      })
      .catch(() => !abort.signal.aborted && setState('failed'));
    return () => {
      abort.abort();
      fm.destroy();
      farmMap.current = null;
    };
  }, [tileUrl]);

  // The devices layer: read once, then kept live by the devices' event stream (state,
  // readings, alarms) — no polling; after a dropped stream the provider reconnects and the
  // layer is read again (what was missed).
  const wantDevices = layers.includes('devices');
  useEffect(() => {
    if (!wantDevices) return;
    let stop = false;
    const load = () =>
      services.data
        .call<{ devices: DevicePoint[] }>('landDevices', { quiet: true })
        .then((env) => {
          if (stop) return;
          setDevices(new Map((env.data?.devices ?? []).map((d) => [d.id, d])));
        })
        .catch(() => {
          if (!stop) setDevicesRefused(true);
        });
    void load();
    const change = (id: number, fn: (d: DevicePoint) => DevicePoint) =>
      setDevices((prev) => {
        const d = prev?.get(id);
        if (!prev || !d) return prev;
        return new Map(prev).set(id, fn(d));
      });
    const sub = services.data.subscribe?.('deviceEvents', {
      onOpen: () => void load(),
      onEvent(type, data) {
        const e = { ...(data as object), type } as DeviceStreamEvent;
        if (e.type === 'state') change(e.deviceId, (d) => ({ ...d, online: e.online, lastSeen: e.lastSeen ?? d.lastSeen }));
        else if (e.type === 'reading') {
          const ts = e.ts;
          change(e.deviceId, (d) => ({ ...d, online: true, lastSeen: ts, readings: { ...d.readings, ...Object.fromEntries(Object.entries(e.values).map(([k, v]) => [k, { value: v, ts }])) } }));
        } else if (e.type === 'alarm') void load();
      },
    });
    return () => {
      stop = true;
      sub?.close();
    };
  }, [services, wantDevices]);
  useEffect(() => {
    if (!devices) return;
    farmMap.current?.setDevices([...devices.values()].map((d) => ({ id: d.id, lon: d.lon, lat: d.lat, properties: { name: d.name, code: d.code, online: d.online, alarms: d.alarms } })));
  }, [devices, state]);

  /** Reads the shapes again (after an import's confirm). */
  function reload() {
    services.data
      .call<MapReply>('landMap', { params: { layers: layers.join(',') }, quiet: true })
      .then((env) => env.data?.features && farmMap.current?.setFeatures(env.data.features))
      .catch(() => setState('failed'));
  }

  /** The first view: a shared `view=` link, the route's centre, a focused record, else the whole farm. */
  function placeView(fm: FarmMap): boolean {
    const view = new URLSearchParams(window.location.search).get('view')?.split(',').map(Number);
    if (view && view.length === 3 && view.every(Number.isFinite)) {
      fm.centreOn(view[0], view[1], view[2]);
      return true;
    }
    const names = Array.isArray(config.centreParams) ? (config.centreParams as string[]) : null;
    const centre = names?.map((n) => Number(route[n]));
    if (centre && centre.length === 3 && centre.every(Number.isFinite)) {
      fm.centreOn(centre[0], centre[1], centre[2]);
      return true;
    }
    const focus = config.focus as { layer?: MapLayerName; param?: string } | undefined;
    const picked = focus?.layer && focus.param && route[focus.param] ? fm.focus(focus.layer, Number(route[focus.param])) : null;
    if (picked) {
      setSelected(`${picked.layer}.${picked.id}`);
      setPanel({ kind: 'picked', picked });
      return true;
    }
    return fm.fit();
  }

  useEffect(() => {
    for (const l of layers) farmMap.current?.setVisible(l, visible.has(l));
  }, [visible, layers]);
  useEffect(() => farmMap.current?.setColourBy(colourBy), [colourBy]);
  useEffect(() => {
    farmMap.current?.setTool(tool);
    if (tool !== 'drawPolygon' && tool !== 'drawPoint') farmMap.current?.clearDraft();
  }, [tool, state]);

  /** Saves a moved shape: the record as stored, with the new shape and its version. */
  async function saveShape(picked: PickedFeature, geometry: string, revert: () => void) {
    setBusy(true);
    setRefusal(null);
    const res = RESOURCE_OF_LAYER[picked.layer];
    try {
      const row = await services.data.query<Record<string, unknown>>({ registry, source: { resource: res, operation: 'read', id: picked.id }, quiet: true });
      const env = await services.data.mutate<Record<string, unknown>>({
        registry,
        source: { resource: res, operation: 'update', id: picked.id },
        body: { ...row, geometry },
        quiet: true,
      });
      const saved = env.data ?? {};
      farmMap.current?.upsert(picked.layer, picked.id, String(saved.geometry ?? geometry), { ...picked.properties, ...saved });
      setPanel({ kind: 'picked', picked: { ...picked, properties: withoutShape({ ...picked.properties, ...saved }) } });
      setNotice(t.saved);
    } catch (e) {
      revert();
      setRefusal(refused(e));
    } finally {
      setBusy(false);
    }
  }

  async function saveDrawn(geometry: string, point: boolean) {
    setBusy(true);
    setRefusal(null);
    const res = point ? pointResource : resource;
    const defaults = (point ? config.pointDefaults : config.defaults) as Record<string, unknown> | undefined;
    const code = draftCode.trim() || `M${Date.now().toString(36).toUpperCase()}`;
    try {
      const env = await services.data.mutate<Record<string, unknown>>({
        registry,
        source: { resource: res, operation: 'create' },
        body: { ...defaults, code, name: draftName.trim() || code, geometry },
        quiet: true,
      });
      const saved = env.data ?? {};
      const layer = LAYER_OF_RESOURCE[res];
      const id = Number(saved.id);
      farmMap.current?.upsert(layer, id, String(saved.geometry ?? geometry), { ...saved, layer });
      farmMap.current?.clearDraft();
      // The shape just saved is the selected one, as its panel says: "edit corners" changes it straight away.
      farmMap.current?.selectRecord(layer, id);
      setSelected(`${layer}.${id}`);
      setPanel({ kind: 'picked', picked: { layer, id, properties: withoutShape({ ...saved, layer }) } });
      setNotice(t.saved);
    } catch (e) {
      setRefusal(refused(e));
    } finally {
      setBusy(false);
    }
  }

  async function remove(picked: PickedFeature) {
    const name = String(picked.properties.name ?? picked.id);
    if (!window.confirm(t.confirmDelete.replace('{name}', name))) return;
    setBusy(true);
    try {
      await services.data.mutate({ registry, source: { resource: RESOURCE_OF_LAYER[picked.layer], operation: 'delete', id: picked.id }, quiet: true });
      farmMap.current?.remove(picked.layer, picked.id);
      setSelected((s) => (s === `${picked.layer}.${picked.id}` ? '' : s));
      setPanel({ kind: 'none' });
      setNotice(t.deleted);
    } catch (e) {
      setRefusal(refused(e));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 2500);
    return () => clearTimeout(timer);
  }, [notice]);

  const tools: { tool: MapTool; label: string; when: boolean }[] = [
    { tool: 'select', label: t.select, when: true },
    { tool: 'drawPolygon', label: t.drawPolygon, when: actions.has('draw') },
    { tool: 'drawPoint', label: t.drawPoint, when: actions.has('drawPoint') },
    { tool: 'edit', label: t.edit, when: actions.has('edit') },
    { tool: 'measureLength', label: t.measureLength, when: actions.has('measure') },
    { tool: 'measureArea', label: t.measureArea, when: actions.has('measure') },
  ];
  const hint = tool === 'drawPolygon' || tool === 'drawPoint' ? t.drawHint : tool === 'edit' ? t.editHint : tool.startsWith('measure') ? t.measureHint : null;

  return (
    <section className={`farm-map${full ? ' farm-map--full' : ''}`} aria-label={t.map} aria-busy={state === 'loading'}>
      {config.toolbar !== false && (
      <div className="farm-map__bar">
        <fieldset className="farm-map__group">
          <legend>{t.tools}</legend>
          {tools
            .filter((x) => x.when)
            .map((x) => (
              <button key={x.tool} type="button" className="farm-map__button" aria-pressed={tool === x.tool} onClick={() => setTool(x.tool)}>
                {x.label}
              </button>
            ))}
          <button type="button" className="farm-map__button" onClick={() => farmMap.current?.fit()}>
            {t.fit}
          </button>
        </fieldset>
        <fieldset className="farm-map__group">
          <legend>{t.layers}</legend>
          {layers.filter((l) => l !== 'devices' || !devicesRefused).map((l) => (
            <label key={l} className="farm-map__check">
              <input
                type="checkbox"
                checked={visible.has(l)}
                onChange={(e) => setVisible((prev) => { const next = new Set(prev); if (e.target.checked) next.add(l); else next.delete(l); return next; })}
              />
              {t[l]}
            </label>
          ))}
        </fieldset>
        {layers.includes('plots') && (
          <fieldset className="farm-map__group">
            <legend>{t.colourBy}</legend>
            {(['crop', 'stage'] as const).map((by) => (
              <label key={by} className="farm-map__check">
                <input type="radio" name="farm-map-colour" checked={colourBy === by} onChange={() => setColourBy(by)} />
                {by === 'crop' ? t.byCrop : t.byStage}
              </label>
            ))}
          </fieldset>
        )}
        <LandFileTools
          services={services}
          t={t}
          canImport={canImport}
          canExport={canExport}
          defaultLayer={str(config.importLayer)}
          showPlan={(features) => farmMap.current?.setPreview(features)}
          reload={reload}
        />
        <span className="farm-map__base">{t.baseMap}: {tileUrl ? new URL(tileUrl.replace(/[{}]/g, ''), window.location.href).host : t.noBaseMap}</span>
      </div>
      )}
      {hint && <p className="farm-map__hint">{hint}</p>}
      <div className="farm-map__body">
        <div ref={target} className="farm-map__canvas" style={height ? { height } : undefined} data-state={state} data-selected={selected} data-tool={tool} data-devices={devices ? devices.size : undefined} data-testid="farm-map" />
        {state === 'loading' && <p className="farm-map__status">{t.loading}</p>}
        {state === 'failed' && <p className="farm-map__status" role="alert">{t.loadFailed}</p>}
        {state === 'empty' && <p className="farm-map__status">{t.empty}</p>}
        {(panel.kind !== 'none' || refusal) && (
          <aside className="farm-map__panel" aria-label={panel.kind === 'picked' ? String(panel.picked.properties.name ?? '') : t.newShape}>
            {panel.kind === 'picked' && panel.picked.layer === 'devices' && (
              <DevicePanel device={devices?.get(panel.picked.id)} lang={lang} detail={details.devices} onDetail={(path) => services.navigate(path)} onClose={() => setPanel({ kind: 'none' })} />
            )}
            {panel.kind === 'picked' && panel.picked.layer !== 'devices' && (
              <PickedPanel
                picked={panel.picked}
                lang={lang}
                detail={details[panel.picked.layer]}
                canDelete={actions.has('delete') && panel.picked.layer === editableLayer}
                busy={busy}
                onDetail={(path) => services.navigate(path)}
                onDelete={() => void remove(panel.picked)}
                onClose={() => setPanel({ kind: 'none' })}
              />
            )}
            {panel.kind === 'drawn' && (
              <form
                className="farm-map__form"
                onSubmit={(e) => {
                  e.preventDefault();
                  void saveDrawn(panel.geometry, panel.point);
                }}
              >
                <h3>{t.newShape}</h3>
                {panel.areaM2 !== null && (
                  <p data-testid="farm-map-draft-area">
                    {t.area}: {formatArea(panel.areaM2, lang)}
                  </p>
                )}
                <label>
                  {t.name}
                  <input value={draftName} maxLength={64} onChange={(e) => setDraftName(e.target.value)} />
                </label>
                <label>
                  {t.code}
                  <input value={draftCode} maxLength={32} pattern="[A-Za-z0-9_\-]*" onChange={(e) => setDraftCode(e.target.value)} />
                </label>
                <div className="farm-map__actions">
                  <button type="submit" className="farm-map__button farm-map__button--primary" disabled={busy}>
                    {t.save}
                  </button>
                  <button
                    type="button"
                    className="farm-map__button"
                    onClick={() => {
                      farmMap.current?.clearDraft();
                      setPanel({ kind: 'none' });
                      setRefusal(null);
                    }}
                  >
                    {t.cancel}
                  </button>
                </div>
              </form>
            )}
            {panel.kind === 'measured' && (
              <p className="farm-map__measure" data-testid="farm-map-measure">
                {panel.text}
              </p>
            )}
            {refusal && (
              <p className="farm-map__refusal" role="alert">
                {t.refused}
                {refusal}
              </p>
            )}
          </aside>
        )}
        {notice && (
          <output className="farm-map__notice" aria-live="polite">
            {notice}
          </output>
        )}
      </div>
    </section>
  );
}

function PickedPanel(props: {
  picked: PickedFeature;
  lang: MapLanguage;
  detail?: string;
  canDelete: boolean;
  busy: boolean;
  onDetail(path: string): void;
  onDelete(): void;
  onClose(): void;
}) {
  const { picked, lang } = props;
  const t = MAP_TEXTS[lang];
  const p = picked.properties;
  const area = typeof p.areaMu === 'number' ? p.areaMu : Number(p.areaMu);
  return (
    <div className="farm-map__picked">
      <h3>{String(p.name ?? picked.id)}</h3>
      <dl>
        <dt>{t[picked.layer]}</dt>
        <dd>{String(p.code ?? '')}</dd>
        {Number.isFinite(area) && (
          <>
            <dt>{t.area}</dt>
            <dd data-testid="farm-map-area">{formatMu(area, lang)}</dd>
          </>
        )}
        {picked.layer === 'plots' && (
          <>
            <dt>{t.crop}</dt>
            <dd>{String(p.cropName ?? t.noCrop)}</dd>
            <dt>{t.status}</dt>
            <dd>{p.status === 1 ? t.planted : t.idle}</dd>
          </>
        )}
      </dl>
      <div className="farm-map__actions">
        {props.detail && (
          <button type="button" className="farm-map__button farm-map__button--primary" onClick={() => props.onDetail(props.detail!.replace('{id}', String(picked.id)))}>
            {t.details}
          </button>
        )}
        {props.canDelete && (
          <button type="button" className="farm-map__button farm-map__button--danger" disabled={props.busy} onClick={props.onDelete}>
            {t.delete}
          </button>
        )}
        <button type="button" className="farm-map__button" onClick={props.onClose}>
          {t.close}
        </button>
      </div>
    </div>
  );
}

/** A device's panel: live (the layer's state follows the devices' event stream). */
function DevicePanel(props: { device: DevicePoint | undefined; lang: MapLanguage; detail?: string; onDetail(path: string): void; onClose(): void }) {
  const { device: d, lang } = props;
  const t = MAP_TEXTS[lang];
  if (!d) return null;
  const locale = lang === 'zh' ? 'zh-CN' : lang === 'es' ? 'es-ES' : 'en-GB';
  const time = (iso: string) => new Date(iso).toLocaleString(locale, { hour12: false });
  const readings = Object.entries(d.readings);
  return (
    <div className="farm-map__picked" data-testid="farm-map-device">
      <h3>{d.name}</h3>
      <dl>
        <dt>{t.devices}</dt>
        <dd>{d.code}</dd>
        <dt>{t.model}</dt>
        <dd>{d.model || '—'}</dd>
        <dt>{t.place}</dt>
        <dd>{d.place || '—'}</dd>
        <dt>{t.status}</dt>
        <dd data-testid="farm-map-device-state" data-online={d.online}>
          {d.online ? t.online : t.offline}
          {d.alarms.length > 0 && <strong className="farm-map__alarm"> · {t.alarm}</strong>}
        </dd>
        <dt>{t.lastSeen}</dt>
        <dd data-testid="farm-map-device-seen">{d.lastSeen ? time(d.lastSeen) : t.never}</dd>
      </dl>
      {d.alarms.length > 0 && (
        <ul className="farm-map__alarms" aria-label={t.alarm}>
          {d.alarms.map((a) => (
            <li key={a.id}>{a.message}</li>
          ))}
        </ul>
      )}
      {readings.length > 0 && (
        <dl aria-label={t.readings}>
          {readings.map(([kind, r]) => (
            <div key={kind} style={{ display: 'contents' }}>
              <dt>{READING_NAMES[lang][kind] ?? kind}</dt>
              <dd>
                {Number(r.value.toFixed(2)).toLocaleString(locale)} {READING_UNITS[kind] ?? ''}
              </dd>
            </div>
          ))}
        </dl>
      )}
      <div className="farm-map__actions">
        {props.detail && (
          <button type="button" className="farm-map__button farm-map__button--primary" onClick={() => props.onDetail(props.detail!.replace('{id}', String(d.id)))}>
            {t.details}
          </button>
        )}
        <button type="button" className="farm-map__button" onClick={props.onClose}>
          {t.close}
        </button>
      </div>
    </div>
  );
}
