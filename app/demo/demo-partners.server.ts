import sharp from "sharp";
import { prepareLogo, storeLogo } from "~/features/partners/logo.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { partners } from "../../db/schema";

/**
 * Six made-up partners for the home page's LogoBanner. Their logos are drawn here as SVG, turned
 * into transparent PNGs with sharp and sent through the same logo pipeline as an upload: nothing
 * is downloaded. They link to reserved example domains.
 */
type DemoPartner = {
  name: string;
  url: string;
  colour: string;
  mark: (colour: string) => string;
};

const circle = (c: string) =>
  `<circle cx="80" cy="80" r="52" fill="none" stroke="${c}" stroke-width="16"/><circle cx="80" cy="80" r="16" fill="${c}"/>`;
const chevrons = (c: string) =>
  `<path d="M34 40 L78 80 L34 120" fill="none" stroke="${c}" stroke-width="18" stroke-linejoin="round"/><path d="M80 40 L124 80 L80 120" fill="none" stroke="${c}" stroke-width="18" stroke-linejoin="round" opacity=".55"/>`;
const shield = (c: string) =>
  `<path d="M80 24 L132 44 V84 C132 112 108 130 80 140 C52 130 28 112 28 84 V44 Z" fill="${c}"/><path d="M58 84 L74 100 L104 66" fill="none" stroke="#ffffff" stroke-width="12" stroke-linecap="round" stroke-linejoin="round"/>`;
const gear = (c: string) =>
  `<g fill="${c}">${Array.from({ length: 8 }, (_, i) => `<rect x="72" y="20" width="16" height="28" rx="3" transform="rotate(${i * 45} 80 80)"/>`).join("")}<circle cx="80" cy="80" r="44"/></g><circle cx="80" cy="80" r="18" fill="#ffffff"/>`;
const cup = (c: string) =>
  `<path d="M36 60 H112 V100 C112 122 96 134 74 134 C52 134 36 122 36 100 Z" fill="${c}"/><path d="M112 72 C136 72 136 104 112 104" fill="none" stroke="${c}" stroke-width="10"/><path d="M58 26 C50 36 66 42 58 52 M80 26 C72 36 88 42 80 52" fill="none" stroke="${c}" stroke-width="6" stroke-linecap="round"/>`;
const flag = (c: string) =>
  `<rect x="34" y="26" width="10" height="112" rx="4" fill="${c}"/>${[0, 1, 2, 3]
    .flatMap((row) =>
      [0, 1, 2, 3].map((col) =>
        (row + col) % 2 === 0
          ? `<rect x="${48 + col * 22}" y="${30 + row * 18}" width="22" height="18" fill="${c}"/>`
          : "",
      ),
    )
    .join("")}`;

const DEMO_PARTNERS: DemoPartner[] = [
  { name: "Apex Tyres", url: "https://apex-tyres.example.com/", colour: "#d9480f", mark: circle },
  { name: "Redline Detailing", url: "https://redline-detailing.example.com/", colour: "#c92a2a", mark: chevrons },
  { name: "Northway Insurance", url: "https://northway.example.org/", colour: "#1c7ed6", mark: shield },
  { name: "Torque & Co", url: "https://torque-and-co.example.com/", colour: "#495057", mark: gear },
  { name: "Gridline Coffee", url: "https://gridline-coffee.example.net/", colour: "#7f4f24", mark: cup },
  { name: "Paddock Storage", url: "https://paddock-storage.example.com/", colour: "#2b8a3e", mark: flag },
];

/**
 * A 640 × 320 logo on a transparent background: an emblem and the name in capitals, its first
 * word large and the rest on a smaller second line.
 */
function demoLogoSvg(partner: Pick<DemoPartner, "name" | "colour" | "mark">) {
  const [first, ...rest] = partner.name.toUpperCase().split(" ");
  const second = rest.join(" ");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320" viewBox="0 0 640 320">
<g transform="translate(24 80)">${partner.mark(partner.colour)}</g>
<text x="208" y="${second ? 168 : 190}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="64" font-weight="800" fill="${partner.colour}" letter-spacing="2">${first}</text>
${second ? `<text x="210" y="222" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="36" font-weight="600" fill="#343a40" letter-spacing="8">${second.replace("&", "&amp;")}</text>` : ""}
</svg>`;
}

export const demoPartnersSeeder: Seeder = {
  name: "demo-partners",
  demo: true,
  async run(db: Db, { storage }) {
    for (const [position, partner] of DEMO_PARTNERS.entries()) {
      const png = await sharp(Buffer.from(demoLogoSvg(partner)))
        .png()
        .toBuffer();
      const logo = await prepareLogo(new Uint8Array(png));
      if (!logo.ok) throw new Error(`Demo logo for ${partner.name}: ${logo.message}`);
      await storeLogo(storage, logo);
      await db.insert(partners).values({
        name: partner.name,
        url: partner.url,
        logo: { hash: logo.hash, color: logo.color, alt: partner.name },
        position,
      });
    }
  },
};
