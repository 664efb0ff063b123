import { runtimeContext } from "~/server/context.server";
import type { Route } from "./+types/manifest";

// The seed's icon sizes; each PNG is generated from public/favicon.svg by scripts/icons.ts.
export const ICON_SIZES = [64, 120, 144, 152, 192, 384, 512] as const;

export function loader({ context }: Route.LoaderArgs) {
  const { env } = context.get(runtimeContext);
  const manifest = {
    id: "/",
    name: env.SITE_NAME,
    short_name: env.SITE_NAME.slice(0, 12),
    description: `${env.SITE_NAME}: car meets, shows, track days, prize draws and members' cars.`,
    lang: "en",
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#111214",
    theme_color: "#111214",
    categories: ["lifestyle", "sports", "entertainment"],
    icons: [
      ...ICON_SIZES.map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: "image/png",
        purpose: "any",
      })),
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
