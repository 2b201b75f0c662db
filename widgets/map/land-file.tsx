/**
 * The map's survey-file tools (docs/land-and-maps.md, "Import and export"): pick a file →
 * the server's plan drawn on the map (create green, update blue, refused red and dashed) with
 * a line per feature and the sentence of each refusal → confirm (the server plans again and
 * writes) or cancel; and the farm's land exported as GeoJSON or KML. Nothing is written
 * before the confirm.
 */
import { useRef, useState } from 'react';
import { isHttpError, type WidgetProps } from '../../runtime/widgets/api.ts';
import type { MapLanguage, MAP_TEXTS } from './texts.ts';

type MapTexts = Record<keyof (typeof MAP_TEXTS)[MapLanguage], string>;

const LAYERS = ['plots', 'boundary', 'greenhouseGroups', 'greenhouses', 'facilities'] as const;
type ImportLayer = (typeof LAYERS)[number];

export interface PlanFeature {
  index: number;
  layer: string | null;
  name: string | null;
  code: string | null;
  action: 'create' | 'update' | 'refused';
  reason?: string;
  areaMu?: number;
  geometry?: unknown;
}

interface PlanReply {
  counts: { create: number; update: number; refused: number; total: number };
  warnings: string[];
  features: PlanFeature[];
}

interface Props {
  services: WidgetProps['services'];
  t: MapTexts;
  canImport: boolean;
  canExport: boolean;
  defaultLayer?: string;
  /** Draws the plan over the map (null clears it). */
  showPlan(features: PlanFeature[] | null): void;
  /** Reads the map's shapes again (after a confirm). */
  reload(): void;
}

function toBase64(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let text = '';
  for (let i = 0; i < view.length; i += 0x8000) text += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(text);
}

export function LandFileTools({ services, t, canImport, canExport, defaultLayer, showPlan, reload }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [layer, setLayer] = useState<ImportLayer>((LAYERS as readonly string[]).includes(String(defaultLayer)) ? (defaultLayer as ImportLayer) : 'plots');
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [plan, setPlan] = useState<PlanReply | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!canImport && !canExport) return null;

  const refusal = (e: unknown) => (isHttpError(e) ? (e.fieldErrors[0]?.message ?? e.serverMessage ?? e.message) : String(e));

  async function send(mode: 'preview' | 'confirm', picked: { name: string; content: string }, as: ImportLayer) {
    setBusy(true);
    setMessage(null);
    try {
      const env = await services.data.call<PlanReply>('landImport', { body: { mode, content: picked.content, fileName: picked.name, layer: as }, quiet: true });
      if (mode === 'preview') {
        setPlan(env.data ?? null);
        showPlan(env.data?.features ?? null);
      } else {
        setPlan(null);
        setFile(null);
        showPlan(null);
        setMessage(env.message ?? null);
        reload();
      }
    } catch (e) {
      setMessage(refusal(e));
      if (mode === 'preview') {
        setPlan(null);
        showPlan(null);
      }
    } finally {
      setBusy(false);
    }
  }

  async function picked(f: File | undefined) {
    if (!f) return;
    const chosen = { name: f.name, content: toBase64(await f.arrayBuffer()) };
    setFile(chosen);
    await send('preview', chosen, layer);
    if (input.current) input.current.value = '';
  }

  async function download(format: 'geojson' | 'kml') {
    setBusy(true);
    setMessage(null);
    try {
      const env = await services.data.call<{ fileName: string; mediaType: string; content: string }>('landExport', { params: { format }, quiet: true });
      if (!env.data) return;
      const url = URL.createObjectURL(new Blob([env.data.content], { type: env.data.mediaType }));
      const a = document.createElement('a');
      a.href = url;
      a.download = env.data.fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setMessage(refusal(e));
    } finally {
      setBusy(false);
    }
  }

  const actionText = { create: t.importCreate, update: t.importUpdate, refused: t.importRefused };
  return (
    <>
      <fieldset className="farm-map__group" data-testid="farm-map-files">
        <legend>{t.landFile}</legend>
        {canImport && (
          <>
            <label className="farm-map__check">
              {t.importAs}{' '}
              <select value={layer} onChange={(e) => setLayer(e.target.value as ImportLayer)} disabled={busy}>
                {LAYERS.map((l) => (
                  <option key={l} value={l}>
                    {t[l]}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="farm-map__button" disabled={busy} onClick={() => input.current?.click()} title={t.importFormats}>
              {t.importFile}
            </button>
            <input
              ref={input}
              type="file"
              hidden
              aria-label={t.importFile}
              accept=".geojson,.json,.kml,.kmz,.zip"
              data-testid="farm-map-import-input"
              onChange={(e) => void picked(e.target.files?.[0])}
            />
          </>
        )}
        {canExport && (
          <>
            <button type="button" className="farm-map__button" disabled={busy} onClick={() => void download('geojson')}>
              {t.exportGeoJson}
            </button>
            <button type="button" className="farm-map__button" disabled={busy} onClick={() => void download('kml')}>
              {t.exportKml}
            </button>
          </>
        )}
      </fieldset>
      {message && (
        <p className="farm-map__hint" role="status" data-testid="farm-map-file-message">
          {message}
        </p>
      )}
      {plan && file && (
        <section className="farm-map__import" aria-label={t.importPreview} data-testid="farm-map-import-preview">
          <h3>
            {t.importPreview}: {file.name}
          </h3>
          <p>
            {t.importCreate} {plan.counts.create} · {t.importUpdate} {plan.counts.update} · {t.importRefused} {plan.counts.refused}
          </p>
          {plan.warnings.map((w) => (
            <p key={w} role="alert">
              {w}
            </p>
          ))}
          <ol className="farm-map__import-list">
            {plan.features.map((f) => (
              <li key={f.index} data-action={f.action}>
                <strong>{actionText[f.action]}</strong> {f.layer ? t[f.layer as ImportLayer] : ''} {f.name ?? `#${f.index}`}
                {f.reason && <span className="farm-map__import-reason"> — {f.reason}</span>}
              </li>
            ))}
          </ol>
          <div className="farm-map__actions">
            <button type="button" className="farm-map__button" disabled={busy || plan.counts.create + plan.counts.update === 0} onClick={() => void send('confirm', file, layer)}>
              {plan.counts.create + plan.counts.update === 0 ? t.importNothing : t.importConfirm}
            </button>
            <button
              type="button"
              className="farm-map__button"
              disabled={busy}
              onClick={() => {
                setPlan(null);
                setFile(null);
                showPlan(null);
              }}
            >
              {t.importCancel}
            </button>
          </div>
        </section>
      )}
    </>
  );
}
