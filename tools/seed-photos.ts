/**
 * `npx tsx tools/seed-photos.ts`: draws the demo photos of fixtures/seed/ (a few kB each)
 * that server/files/seed.ts puts on the demo farm's pest and seedling reports. Drawn, not
 * photographed, so the repository holds no one's pictures; committed, so a clean clone
 * seeds them without running this.
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';

const W = 640;
const H = 480;

function field(rows: number, plant: (x: number, y: number, i: number) => string, sky = '#bcd8ef', soil = '#7a5a3a'): string {
  let plants = '';
  for (let r = 0; r < rows; r++) {
    const y = 200 + r * (260 / rows);
    const n = 6 + r * 2;
    for (let i = 0; i < n; i++) plants += plant(40 + (i * (W - 80)) / (n - 1), y, r);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="190" fill="${sky}"/><rect y="180" width="${W}" height="${H - 180}" fill="${soil}"/>${plants}</svg>`;
}

const corn = (x: number, y: number, r: number) => {
  const s = 0.6 + r * 0.25;
  return `<g transform="translate(${x},${y}) scale(${s})"><path d="M0 0 C -18 -20 -30 -24 -40 -20 C -26 -16 -12 -8 0 0Z" fill="#4f9a2f"/><path d="M0 0 C 16 -26 30 -30 42 -26 C 28 -20 12 -10 0 0Z" fill="#5fae38"/><rect x="-2" y="-30" width="4" height="30" fill="#3e7d24"/></g>`;
};
const soy = (x: number, y: number, r: number) => {
  const s = 0.6 + r * 0.25;
  return `<g transform="translate(${x},${y}) scale(${s})"><rect x="-2" y="-22" width="4" height="22" fill="#3e7d24"/><ellipse cx="-12" cy="-24" rx="13" ry="8" fill="#6cb33f"/><ellipse cx="12" cy="-26" rx="13" ry="8" fill="#5aa232"/></g>`;
};

function leaf(pests: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#2f4f1f"/><path d="M40 420 C 160 80 480 40 610 60 C 560 220 360 440 40 420Z" fill="#6aa84f"/><path d="M40 420 C 250 300 420 160 610 60" stroke="#c9e6b5" stroke-width="6" fill="none"/>${pests}</svg>`;
}
const borer = `<g transform="translate(330,250) rotate(-25)"><rect x="-70" y="-14" width="140" height="28" rx="14" fill="#d9b98c"/>${[...Array(7)].map((_, i) => `<circle cx="${-60 + i * 20}" cy="0" r="4" fill="#8a6a45"/>`).join('')}<circle cx="72" cy="0" r="12" fill="#5a3d22"/></g><circle cx="250" cy="300" r="18" fill="#4a3520" opacity="0.7"/>`;
const aphids = [...Array(26)].map((_, i) => `<ellipse cx="${200 + ((i * 53) % 260)}" cy="${170 + ((i * 37) % 180)}" rx="9" ry="6" fill="#cfd86a" stroke="#7d8a2a"/>`).join('');
const whitefly = [...Array(14)].map((_, i) => `<g transform="translate(${180 + ((i * 71) % 300)},${150 + ((i * 43) % 200)})"><ellipse cx="-7" cy="0" rx="8" ry="5" fill="#fbfbf5"/><ellipse cx="7" cy="0" rx="8" ry="5" fill="#fbfbf5"/><ellipse cx="0" cy="0" rx="3" ry="6" fill="#e8d36a"/></g>`).join('');
const trap = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#8fb96b"/><rect x="150" y="60" width="340" height="360" fill="#f3d23a" stroke="#b8961c" stroke-width="8"/>${[...Array(30)].map((_, i) => `<ellipse cx="${180 + ((i * 61) % 280)}" cy="${90 + ((i * 47) % 300)}" rx="6" ry="4" fill="#3a3a2a"/>`).join('')}</svg>`;

const photos: [string, string, 'jpeg' | 'png'][] = [
  ['pest-corn-borer.jpg', leaf(borer), 'jpeg'],
  ['pest-soy-aphid.jpg', leaf(aphids), 'jpeg'],
  ['pest-whitefly.png', leaf(whitefly), 'png'],
  ['pest-yellow-trap.jpg', trap, 'jpeg'],
  ['seedling-corn.jpg', field(4, corn), 'jpeg'],
  ['seedling-soy.jpg', field(4, soy), 'jpeg'],
];

for (const [name, svg, format] of photos) {
  const image = sharp(Buffer.from(svg)).resize(480);
  const out = format === 'jpeg' ? await image.jpeg({ quality: 62 }).toBuffer() : await image.png({ palette: true, colours: 32 }).toBuffer();
  writeFileSync(`fixtures/seed/${name}`, out);
  console.log(name, out.length);
}
