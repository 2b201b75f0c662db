/**
 * A generated farm for the map benchmark: N plots of about 1.2 ha (90 m × 130 m, five or
 * six corners) on a rotated grid near Shuangcheng, Harbin, with field roads between them,
 * plus the boundary, as GET /api/land/map would send them.
 */
type Feature = { type: 'Feature'; id: string; geometry: { type: 'Polygon'; coordinates: number[][][] }; properties: Record<string, unknown> };

export function generateFarm(count: number): { type: 'FeatureCollection'; features: Feature[] } {
  const cols = Math.ceil(Math.sqrt(count * 1.5));
  const origin = [126.2, 45.3];
  const mPerLat = 111_320;
  const mPerLon = 111_320 * Math.cos((origin[1] * Math.PI) / 180);
  const a = (6 * Math.PI) / 180;
  const at = (x: number, y: number) => [origin[0] + (x * Math.cos(a) - y * Math.sin(a)) / mPerLon, origin[1] + (x * Math.sin(a) + y * Math.cos(a)) / mPerLat];
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const features: Feature[] = [];
  for (let i = 0; i < count; i++) {
    const c = i % cols;
    const r = Math.floor(i / cols);
    const x = c * 100;
    const y = r * 140;
    const ring = [at(x, y), at(x + 90, y), at(x + 90, y + 130), at(x + 30 + rnd() * 20, y + 130), at(x, y + 110), at(x, y)];
    features.push({
      type: 'Feature',
      id: `plots.${i + 1}`,
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { id: i + 1, layer: 'plots', name: `${r + 1}-${c + 1}号地`, cropId: 1 + (i % 7), status: i % 9 === 0 ? 0 : 1, areaMu: 17.5 },
    });
  }
  const rows = Math.ceil(count / cols);
  const outline = [at(-30, -30), at(cols * 100 + 20, -30), at(cols * 100 + 20, rows * 140 + 20), at(-30, rows * 140 + 20), at(-30, -30)];
  features.push({ type: 'Feature', id: 'boundary.1', geometry: { type: 'Polygon', coordinates: [outline] }, properties: { id: 1, layer: 'boundary', name: '场界' } });
  return { type: 'FeatureCollection', features };
}
