// Generates the web-app icons and Apple splash screens from public/favicon.svg with sharp, so
// nothing is downloaded and a club that swaps the SVG gets a matching set on the next build.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { APPLE_SPLASH_SCREENS, ICON_SIZES, MASKABLE_SIZES } from "../app/ui/web-app-icons";

const root = path.resolve(import.meta.dirname, "..");
const source = path.join(root, "public/favicon.svg");
const iconsDir = path.join(root, "public/icons");
const splashDir = path.join(root, "public/splash");
const BACKGROUND = "#111214";

function upToDate(file: string) {
  try {
    return statSync(file).mtimeMs >= statSync(source).mtimeMs;
  } catch {
    return false;
  }
}

async function renderMark(size: number) {
  return sharp(readFileSync(source), { density: Math.max(72, (size / 32) * 72) })
    .resize(size, size)
    .png()
    .toBuffer();
}

async function icon(size: number, file: string) {
  if (upToDate(file)) return;
  await sharp(await renderMark(size))
    .png({ compressionLevel: 9 })
    .toFile(file);
}

/** Maskable icons keep the mark inside the central 80 % safe zone on a solid background. */
async function maskable(size: number, file: string) {
  if (upToDate(file)) return;
  const mark = Math.round(size * 0.6);
  await sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: await renderMark(mark), gravity: "center" }])
    .png({ compressionLevel: 9 })
    .toFile(file);
}

async function splash(width: number, height: number, file: string) {
  if (upToDate(file)) return;
  const mark = Math.round(Math.min(width, height) * 0.25);
  await sharp({ create: { width, height, channels: 4, background: BACKGROUND } })
    .composite([{ input: await renderMark(mark), gravity: "center" }])
    .png({ compressionLevel: 9 })
    .toFile(file);
}

mkdirSync(iconsDir, { recursive: true });
mkdirSync(splashDir, { recursive: true });
await Promise.all([
  ...[...ICON_SIZES, 180].map((size) => icon(size, path.join(iconsDir, `icon-${size}.png`))),
  ...MASKABLE_SIZES.map((size) => maskable(size, path.join(iconsDir, `maskable-${size}.png`))),
  ...APPLE_SPLASH_SCREENS.map(({ width, height }) =>
    splash(width, height, path.join(splashDir, `splash-${width}x${height}.png`)),
  ),
]);
console.log(`Icons and splash screens are in ${path.relative(root, iconsDir)} and ${path.relative(root, splashDir)}`);
