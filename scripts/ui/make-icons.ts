// Renders the app icons and the share card (Open Graph image) from web/public/icon.svg with Chromium.
// Run after changing the logo: node --import tsx scripts/ui/make-icons.ts  (outputs are committed).
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const svg = readFileSync('web/public/icon.svg', 'utf8');
const svgData = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
const page = await browser.newPage();

async function renderIcon(size: number, maskable = false): Promise<Buffer> {
  await page.setViewportSize({ width: size, height: size });
  // Maskable icons keep the logo inside the central 80% safe zone on a full-bleed background.
  const inner = maskable ? Math.round(size * 0.7) : size;
  await page.setContent(
    `<body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? '#5865F2' : 'transparent'}"><img src="${svgData}" width="${inner}" height="${inner}"></body>`,
  );
  return page.screenshot({ omitBackground: !maskable });
}

/** An .ico holding PNG images (supported by every browser that still asks for /favicon.ico). */
function ico(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

writeFileSync(
  'web/public/favicon.ico',
  ico([
    { size: 16, png: await renderIcon(16) },
    { size: 32, png: await renderIcon(32) },
    { size: 48, png: await renderIcon(48) },
  ]),
);
writeFileSync('web/public/apple-touch-icon.png', await renderIcon(180, true));
writeFileSync('web/public/icon-192.png', await renderIcon(192));
writeFileSync('web/public/icon-512.png', await renderIcon(512));
writeFileSync('web/public/icon-maskable-512.png', await renderIcon(512, true));

// Share card: 1200x630, what Discord, X and others show for a pasted link.
await page.setViewportSize({ width: 1200, height: 630 });
await page.setContent(`<body style="margin:0;width:1200px;height:630px;font-family:'DejaVu Sans',sans-serif;color:#f2f3f5;
  background:radial-gradient(900px 500px at 10% -10%, rgba(88,101,242,0.45), transparent 60%),radial-gradient(700px 400px at 110% 10%, rgba(245,184,61,0.25), transparent 60%),#0f1117;
  display:flex;flex-direction:column;justify-content:center;padding:0 96px;box-sizing:border-box">
  <div style="display:flex;align-items:center;gap:28px"><img src="${svgData}" width="112" height="112"><span style="font-size:88px;font-weight:800;letter-spacing:-2px">CoinSync</span></div>
  <div style="font-size:44px;font-weight:700;margin-top:40px">Grow your Discord community with real members.</div>
  <div style="font-size:30px;color:#a4aabb;margin-top:20px">Earn coins by joining servers. Spend them to grow your own.</div>
</body>`);
writeFileSync('web/public/og-image.png', await page.screenshot({ type: 'png' }));
await browser.close();
console.log('icons written to web/public');
