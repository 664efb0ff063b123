import { runtimeContext } from "~/server/context.server";
import { ICON_SIZES, MASKABLE_SIZES } from "~/ui/web-app-icons";
import type { Route } from "./+types/manifest";

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
      ...MASKABLE_SIZES.map((size) => ({
        src: `/icons/maskable-${size}.png`,
        sizes: `${size}x${size}`,
        type: "image/png",
        purpose: "maskable",
      })),
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
