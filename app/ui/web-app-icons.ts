// The icon sizes the installable web app offers; scripts/build-icons.ts renders each from
// public/favicon.svg, and the manifest and the document head list them.
export const ICON_SIZES = [64, 120, 144, 152, 192, 384, 512] as const;
export const MASKABLE_SIZES = [192, 512] as const;

/** Portrait launch screens for iPhones and iPads: device pixels, CSS pixels and pixel ratio. */
export const APPLE_SPLASH_SCREENS = [
  { width: 1290, height: 2796, ratio: 3 },
  { width: 1179, height: 2556, ratio: 3 },
  { width: 1284, height: 2778, ratio: 3 },
  { width: 1170, height: 2532, ratio: 3 },
  { width: 1125, height: 2436, ratio: 3 },
  { width: 1242, height: 2688, ratio: 3 },
  { width: 828, height: 1792, ratio: 2 },
  { width: 750, height: 1334, ratio: 2 },
  { width: 640, height: 1136, ratio: 2 },
  { width: 1668, height: 2388, ratio: 2 },
  { width: 2048, height: 2732, ratio: 2 },
] as const;

export function appleSplashLinks() {
  return APPLE_SPLASH_SCREENS.map(({ width, height, ratio }) => ({
    rel: "apple-touch-startup-image",
    href: `/splash/splash-${width}x${height}.png`,
    media: `(device-width: ${width / ratio}px) and (device-height: ${height / ratio}px) and (-webkit-device-pixel-ratio: ${ratio}) and (orientation: portrait)`,
  }));
}
