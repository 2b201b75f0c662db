/**
 * The weather forecast behind an interface: a provider answers a farm's forecast. The
 * default provider says clearly that none is configured. FORECAST_URL chooses the HTTP
 * provider (httpForecast): GET {url}?farmId&lng&lat&lang answering
 * `{provider?, days: [{date, summary, low, high, rainfallMm}]}` — an adapter in front of a
 * national weather service's API (with its key) speaks this; a provider that cannot be
 * reached or answers otherwise is said so on the screen, never shown as weather.
 */
import { t } from '../i18n/catalog.ts';
import type { Lang } from '../i18n/lang.ts';
import './messages.ts';

export interface ForecastDay {
  date: string;
  summary: string;
  low: number;
  high: number;
  rainfallMm: number;
}

export interface ForecastAnswer {
  configured: boolean;
  provider: string | null;
  message: string;
  days: ForecastDay[];
}

export interface ForecastProvider {
  forecast(farmId: number | null, lang: Lang): Promise<ForecastAnswer>;
}

export const noForecast: ForecastProvider = {
  async forecast(_farmId, lang) {
    return { configured: false, provider: null, message: t(lang, 'devices.forecastNone'), days: [] };
  },
};

const isDay = (d: unknown): d is ForecastDay => {
  const x = d as ForecastDay;
  return !!x && typeof x.date === 'string' && typeof x.summary === 'string' && [x.low, x.high, x.rainfallMm].every((n) => typeof n === 'number' && Number.isFinite(n));
};

/** The forecast from an HTTP provider at `url` (FORECAST_URL); 5 s at most. */
export function httpForecast(url: string, where: (farmId: number | null) => Promise<{ lng: number; lat: number } | null>, timeoutMs = 5000): ForecastProvider {
  return {
    async forecast(farmId, lang) {
      const host = (() => {
        try {
          return new URL(url).host;
        } catch {
          return url;
        }
      })();
      try {
        const at = await where(farmId);
        const q = new URLSearchParams({ farmId: String(farmId ?? ''), lang, ...(at ? { lng: String(at.lng), lat: String(at.lat) } : {}) });
        const res = await fetch(`${url}${url.includes('?') ? '&' : '?'}${q}`, { signal: AbortSignal.timeout(timeoutMs) });
        const body = (await res.json()) as { provider?: unknown; days?: unknown };
        if (!res.ok || !Array.isArray(body.days) || !body.days.every(isDay)) throw new Error(`status ${res.status}`);
        const provider = typeof body.provider === 'string' && body.provider ? body.provider.slice(0, 60) : host;
        return { configured: true, provider, message: t(lang, 'devices.forecastFrom', { provider }), days: body.days.slice(0, 15) };
      } catch {
        return { configured: true, provider: host, message: t(lang, 'devices.forecastDown', { provider: host }), days: [] };
      }
    },
  };
}
