import { putAll } from "~/features/media/pipeline.server";
import { PRODUCT_IMAGE_ASPECT, PRODUCT_IMAGE_WIDTHS, productImageKey } from "~/features/shop/product-image-urls";
import type { PreparedProductImage } from "~/features/shop/product-images.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import type { Storage } from "~/server/storage/storage.server";
import {
  type ProductCategory,
  type ProductImage,
  type ProductStatus,
  products,
  productVariants,
} from "../../db/schema";
import { demoRenditions, twoAtATime } from "./demo-covers.server";

/**
 * Demo merch for a new install: a dozen products across the four categories, so the shop shows
 * every state a buyer can meet — sizes and colours, one product sold out in every size, one
 * size down to its last units ("Few left"), single-variant stickers and a model car — and one
 * draft only staff see. Photos are drawn locally as SVG (no downloads) and stored exactly where
 * an uploaded product photo is (`products/<hash>-<width>.<avif|webp>`, 4:5).
 */

const WIDTH = 1200;
const HEIGHT = Math.round(WIDTH / PRODUCT_IMAGE_ASPECT);

type Art =
  | { kind: "tee" | "hoodie"; colour: string; trim: string; background: [string, string] }
  | { kind: "cap"; colour: string; trim: string; background: [string, string] }
  | { kind: "stickers"; colours: string[]; background: [string, string] }
  | { kind: "banner"; colour: string; text: string; background: [string, string] }
  | { kind: "model"; paint: string; box: string; background: [string, string] }
  | { kind: "keyring" | "mug" | "lanyard"; colour: string; trim: string; background: [string, string] };

type DemoVariant = {
  options: string[];
  sku: string;
  price: number;
  /** What club members pay (docs/membership.md, "Member prices…"). */
  memberPrice?: number;
  stock: number;
  maxPerOrder?: number;
};

type DemoProduct = {
  slug: string;
  title: string;
  category: ProductCategory;
  status?: ProductStatus;
  summary: string;
  description: string;
  sizeGuide?: string;
  optionNames: string[];
  lowStockThreshold?: number;
  variants: DemoVariant[];
  images: { art: Art; alt: string }[];
};

const STUDIO: [string, string] = ["#eef1f5", "#cfd6df"];
const WARM: [string, string] = ["#f6efe6", "#dccbb4"];
const DARK: [string, string] = ["#2a2f38", "#0f1216"];

const TEE_GUIDE = `| Size | Chest (cm) | Length (cm) |
| ---- | ---------- | ----------- |
| S    | 92         | 70          |
| M    | 100        | 72          |
| L    | 108        | 74          |
| XL   | 116        | 76          |
| XXL  | 124        | 78          |

Measured flat, armpit to armpit and collar to hem. The fit is regular: size up for a looser fit.`;

const HOODIE_GUIDE = `| Size | Chest (cm) | Length (cm) | Sleeve (cm) |
| ---- | ---------- | ----------- | ----------- |
| S    | 100        | 68          | 61          |
| M    | 108        | 70          | 62          |
| L    | 116        | 72          | 63          |
| XL   | 124        | 74          | 64          |
| XXL  | 132        | 76          | 65          |`;

const SIZES = ["S", "M", "L", "XL", "XXL"];

/** Stock per size for a garment: plenty in the middle sizes, fewer at the ends. */
function sized(prefix: string, price: number, stock: number[], colour?: { name: string; code: string }): DemoVariant[] {
  return SIZES.map((size, index) => ({
    options: colour ? [size, colour.name] : [size],
    sku: colour ? `${prefix}-${colour.code}-${size}` : `${prefix}-${size}`,
    price,
    stock: stock[index] ?? 0,
  }));
}

const DEMO_PRODUCTS: DemoProduct[] = [
  {
    slug: "club-tee",
    title: "Pitlane club T-shirt",
    category: "apparel",
    summary: "Heavyweight cotton tee with the chequered crest on the chest.",
    description:
      "Our everyday club tee: **180 g/m² ring-spun cotton**, a taped neck that keeps its shape and the chequered-flag crest printed on the chest.\n\n- Machine wash at 30 °C, inside out\n- Printed in the UK\n- Unisex regular fit",
    sizeGuide: TEE_GUIDE,
    optionNames: ["Size", "Colour"],
    variants: [
      ...sized("TEE", 2200, [12, 30, 30, 18, 8], { name: "Black", code: "BLK" }),
      ...sized("TEE", 2200, [10, 24, 2, 12, 0], { name: "White", code: "WHT" }),
    ].map((variant) => ({ ...variant, memberPrice: 1700 })),
    images: [
      {
        art: { kind: "tee", colour: "#16181c", trim: "#e5e7eb", background: STUDIO },
        alt: "Black club T-shirt with a white chequered-flag crest",
      },
      {
        art: { kind: "tee", colour: "#f7f7f5", trim: "#16181c", background: WARM },
        alt: "White club T-shirt with a black chequered-flag crest",
      },
    ],
  },
  {
    slug: "paddock-hoodie",
    title: "Paddock hoodie",
    category: "apparel",
    summary: "Brushed-back fleece for cold mornings in the paddock. Medium is nearly gone.",
    description:
      "A 330 g/m² brushed-back hoodie with a lined hood, a kangaroo pocket big enough for gloves and a cable tie, and the crest on the chest.",
    sizeGuide: HOODIE_GUIDE,
    optionNames: ["Size"],
    variants: sized("HOOD-NVY", 4200, [6, 2, 9, 7, 4]),
    images: [
      {
        art: { kind: "hoodie", colour: "#1e2b4a", trim: "#f59e0b", background: STUDIO },
        alt: "Navy hoodie with an amber crest and kangaroo pocket",
      },
    ],
  },
  {
    slug: "track-day-hoodie-sold-out",
    title: "Track day hoodie (2025 edition)",
    category: "apparel",
    summary: "Last season's limited run, with every track day on the back. Sold out.",
    description:
      "Printed once for the 2025 season with every circuit we visited on the back. We will not reprint it — join the club to hear first about the next one.",
    sizeGuide: HOODIE_GUIDE,
    optionNames: ["Size"],
    variants: sized("HOOD25", 4800, [0, 0, 0, 0, 0]),
    images: [
      {
        art: { kind: "hoodie", colour: "#7f1d1d", trim: "#fde68a", background: WARM },
        alt: "Dark red hoodie with a pale yellow crest",
      },
    ],
  },
  {
    slug: "club-cap",
    title: "Club cap",
    category: "apparel",
    summary: "Six-panel cotton cap with an embroidered crest and a brass buckle.",
    description: "One size fits most: the strap adjusts from 54 to 61 cm.",
    optionNames: ["Colour"],
    variants: [
      { options: ["Black"], sku: "CAP-BLK", price: 1800, stock: 40 },
      { options: ["Red"], sku: "CAP-RED", price: 1800, stock: 25 },
    ],
    images: [
      {
        art: { kind: "cap", colour: "#111318", trim: "#f4f4f5", background: STUDIO },
        alt: "Black cap with a white embroidered crest",
      },
      {
        art: { kind: "cap", colour: "#b91c1c", trim: "#f4f4f5", background: WARM },
        alt: "Red cap with a white embroidered crest",
      },
    ],
  },
  {
    slug: "sticker-pack",
    title: "Sticker pack",
    category: "stickers",
    summary: "Eight weatherproof vinyl stickers: crest, flags and circuit maps.",
    description:
      "Eight die-cut stickers in UV-resistant vinyl, from 5 to 12 cm: good on a toolbox, a helmet bag or the back window.",
    optionNames: [],
    variants: [{ options: [], sku: "STK-PACK8", price: 500, stock: 200, maxPerOrder: 20 }],
    images: [
      {
        art: { kind: "stickers", colours: ["#ef4444", "#f59e0b", "#10b981", "#3b82f6", "#111827"], background: STUDIO },
        alt: "A spread of colourful die-cut stickers",
      },
    ],
  },
  {
    slug: "windscreen-banner",
    title: "Windscreen banner",
    category: "stickers",
    summary: "130 cm cut-vinyl sun strip with the club name.",
    description: "Cut from one sheet of cast vinyl, no background: only the letters stay on the glass.",
    optionNames: ["Colour"],
    variants: [
      { options: ["White"], sku: "BAN-WHT", price: 1200, stock: 35 },
      { options: ["Silver"], sku: "BAN-SLV", price: 1400, stock: 12 },
    ],
    images: [
      {
        art: { kind: "banner", colour: "#f8fafc", text: "PITLANE", background: DARK },
        alt: "White sun strip on a dark windscreen",
      },
    ],
  },
  {
    slug: "mk2-golf-model-1-43",
    title: "1:43 Mk2 Golf GTI model",
    category: "models",
    summary: "Die-cast 1:43 Golf GTI in Tornado Red, in a display case. Three left.",
    description:
      "A die-cast **1:43** model of the club's Mk2 Golf GTI 16v in Tornado Red, with opening-free detail, rubber tyres and a perspex display case.\n\nNot a toy: not suitable for children under 14.",
    optionNames: [],
    lowStockThreshold: 5,
    variants: [{ options: [], sku: "MOD-GOLF-143", price: 3499, stock: 3, maxPerOrder: 2 }],
    images: [
      {
        art: { kind: "model", paint: "#dc2626", box: "#1f2937", background: STUDIO },
        alt: "A red 1:43 hatchback model in its display case",
      },
    ],
  },
  {
    slug: "e30-m3-model-1-18",
    title: "1:18 E30 M3 model",
    category: "models",
    summary: "Die-cast 1:18 E30 M3 in Alpine White with opening doors and bonnet.",
    description:
      "A large **1:18** die-cast E30 M3 in Alpine White: opening doors, bonnet and boot, a detailed S14 engine bay and steerable front wheels.",
    optionNames: [],
    variants: [{ options: [], sku: "MOD-E30-118", price: 8900, stock: 7, maxPerOrder: 2 }],
    images: [
      {
        art: { kind: "model", paint: "#f1f5f9", box: "#7f1d1d", background: WARM },
        alt: "A white 1:18 saloon model on its display base",
      },
    ],
  },
  {
    slug: "crest-keyring",
    title: "Crest keyring",
    category: "accessories",
    summary: "Enamel crest on a split ring. Light enough for any key.",
    description: "Hard-enamel crest, 35 mm, on a nickel split ring.",
    optionNames: [],
    variants: [{ options: [], sku: "KEY-CREST", price: 650, stock: 80, maxPerOrder: 10 }],
    images: [
      {
        art: { kind: "keyring", colour: "#1d4ed8", trim: "#fbbf24", background: STUDIO },
        alt: "A blue enamel crest keyring with a gold ring",
      },
    ],
  },
  {
    slug: "pit-crew-mug",
    title: "Pit crew mug",
    category: "accessories",
    summary: "350 ml enamel camping mug for the paddock kettle.",
    description: "Steel with a white enamel coat and a black rim. Dishwasher-safe; not for the microwave.",
    optionNames: [],
    variants: [{ options: [], sku: "MUG-ENAMEL", price: 1100, stock: 45 }],
    images: [
      {
        art: { kind: "mug", colour: "#fafafa", trim: "#111827", background: WARM },
        alt: "White enamel mug with a black rim",
      },
    ],
  },
  {
    slug: "event-lanyard",
    title: "Event lanyard",
    category: "accessories",
    summary: "Woven lanyard with a safety break, for your e-ticket or pass.",
    description: "20 mm woven polyester with a safety break at the neck and a swivel clip.",
    optionNames: ["Colour"],
    variants: [
      { options: ["Black"], sku: "LAN-BLK", price: 400, stock: 120, maxPerOrder: 20 },
      { options: ["Orange"], sku: "LAN-ORG", price: 400, stock: 60, maxPerOrder: 20 },
    ],
    images: [
      {
        art: { kind: "lanyard", colour: "#ea580c", trim: "#111827", background: STUDIO },
        alt: "An orange woven lanyard with a black clip",
      },
    ],
  },
  {
    slug: "marshal-tee-kids",
    title: "Little marshal kids' T-shirt",
    category: "apparel",
    summary: "Hi-vis orange kids' tee with 'Little marshal' on the back.",
    description: "Soft cotton in hi-vis orange for the youngest members of the pit crew.",
    optionNames: ["Size"],
    variants: ["3–4", "5–6", "7–8", "9–11"].map((size, index) => ({
      options: [size],
      sku: `KTEE-${index + 1}`,
      price: 1400,
      stock: [8, 12, 10, 1][index]!,
    })),
    images: [
      {
        art: { kind: "tee", colour: "#f97316", trim: "#111827", background: STUDIO },
        alt: "A hi-vis orange kids' T-shirt",
      },
    ],
  },
  {
    slug: "rally-jacket",
    title: "Rally jacket",
    category: "apparel",
    status: "draft",
    summary: "Waxed cotton jacket, coming in the spring.",
    description: "Waxed cotton shell, quilted lining, two-way zip. Samples arriving soon.",
    sizeGuide: HOODIE_GUIDE,
    optionNames: ["Size"],
    variants: sized("JKT", 11900, [0, 0, 0, 0, 0]),
    images: [
      {
        art: { kind: "hoodie", colour: "#3f4a2f", trim: "#d6d3d1", background: WARM },
        alt: "An olive waxed jacket",
      },
    ],
  },
];

/** The club crest, a chequered shield, centred at (x, y) and `size` wide. */
function crest(x: number, y: number, size: number, ink: string) {
  const cell = size / 4;
  const squares: string[] = [];
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 4; col++) {
      if ((row + col) % 2 === 0) {
        squares.push(
          `<rect x="${x - size / 2 + col * cell}" y="${y - size / 2 + row * cell}" width="${cell}" height="${cell}"/>`,
        );
      }
    }
  }
  const shield = `M${x - size / 2} ${y - size / 2} H${x + size / 2} V${y + size * 0.25} Q${x + size / 2} ${y + size * 0.6} ${x} ${y + size * 0.75} Q${x - size / 2} ${y + size * 0.6} ${x - size / 2} ${y + size * 0.25} Z`;
  return `<clipPath id="shield"><path d="${shield}"/></clipPath>
    <g clip-path="url(#shield)" fill="${ink}">${squares.join("")}</g>
    <path d="${shield}" fill="none" stroke="${ink}" stroke-width="${size / 16}"/>`;
}

function garment(art: Extract<Art, { kind: "tee" | "hoodie" }>) {
  const body =
    "M380 330 L250 390 L140 600 L260 660 L320 560 L320 1230 Q600 1260 880 1230 L880 560 L940 660 L1060 600 L950 390 L820 330 Q600 420 380 330 Z";
  const sleeves =
    art.kind === "hoodie" ? "M140 600 L100 1020 L200 1040 L320 700 Z M1060 600 L1100 1020 L1000 1040 L880 700 Z" : "";
  const hood =
    art.kind === "hoodie"
      ? `<path d="M380 330 Q400 170 600 160 Q800 170 820 330 Q600 420 380 330 Z" fill="${art.colour}" stroke="rgba(0,0,0,0.25)" stroke-width="6"/>
         <path d="M450 330 Q600 260 750 330" fill="none" stroke="rgba(0,0,0,0.35)" stroke-width="10"/>
         <path d="M560 380 L550 520 M640 380 L650 520" stroke="${art.trim}" stroke-width="8" stroke-linecap="round"/>
         <path d="M430 930 L770 930 L820 1110 L380 1110 Z" fill="rgba(0,0,0,0.18)"/>`
      : `<path d="M470 335 Q600 410 730 335" fill="none" stroke="rgba(0,0,0,0.25)" stroke-width="14"/>`;
  return `<path d="${sleeves}" fill="${art.colour}" stroke="rgba(0,0,0,0.2)" stroke-width="4"/>
    <path d="${body}" fill="${art.colour}" stroke="rgba(0,0,0,0.2)" stroke-width="4"/>
    ${hood}
    ${crest(art.kind === "hoodie" ? 600 : 720, art.kind === "hoodie" ? 650 : 560, 120, art.trim)}`;
}

function drawing(art: Art) {
  switch (art.kind) {
    case "tee":
    case "hoodie":
      return garment(art);
    case "cap":
      return `<ellipse cx="600" cy="930" rx="430" ry="90" fill="rgba(0,0,0,0.18)"/>
        <path d="M250 850 Q250 480 600 470 Q950 480 950 850 Z" fill="${art.colour}"/>
        <path d="M600 470 L600 850 M420 520 Q480 700 470 850 M780 520 Q720 700 730 850" stroke="rgba(0,0,0,0.25)" stroke-width="6" fill="none"/>
        <path d="M250 850 Q150 870 130 930 Q420 990 700 900 Q600 850 250 850 Z" fill="${art.colour}" stroke="rgba(0,0,0,0.3)" stroke-width="6"/>
        <circle cx="600" cy="472" r="18" fill="${art.colour}" stroke="rgba(0,0,0,0.3)" stroke-width="4"/>
        ${crest(600, 650, 130, art.trim)}`;
    case "stickers": {
      const [a = "#ef4444", b = "#f59e0b", c = "#10b981", d = "#3b82f6", e = "#111827"] = art.colours;
      return `<g stroke="#ffffff" stroke-width="18" stroke-linejoin="round">
          <rect x="190" y="260" width="380" height="260" rx="40" fill="${a}" transform="rotate(-8 380 390)"/>
          <circle cx="840" cy="420" r="190" fill="${b}"/>
          <rect x="260" y="640" width="300" height="300" rx="60" fill="${c}" transform="rotate(10 410 790)"/>
          <path d="M700 700 L1000 720 L960 1000 L680 960 Z" fill="${d}"/>
          <rect x="330" y="1060" width="560" height="170" rx="85" fill="${e}" transform="rotate(-4 610 1145)"/>
        </g>
        <g fill="#ffffff">${crest(380, 380, 120, "#ffffff")}</g>
        <path d="M760 420 Q840 300 920 420 Q840 540 760 420 Z" fill="none" stroke="#ffffff" stroke-width="16"/>
        <path d="M330 760 L420 700 L500 780 L430 860 Z" fill="none" stroke="#ffffff" stroke-width="16"/>`;
    }
    case "banner": {
      const letters = [...art.text].map(
        (_, index) =>
          `<rect x="${150 + index * 130}" y="640" width="90" height="170" rx="10" fill="${art.colour}" opacity="${index % 2 ? 0.9 : 1}"/>`,
      );
      return `<path d="M80 420 Q600 340 1120 420 L1080 1200 Q600 1260 120 1200 Z" fill="#0b1a2a" stroke="#394150" stroke-width="20"/>
        <rect x="120" y="600" width="960" height="250" fill="rgba(255,255,255,0.06)"/>
        ${letters.join("")}`;
    }
    case "model":
      return `<rect x="140" y="380" width="920" height="760" rx="24" fill="rgba(255,255,255,0.35)" stroke="rgba(0,0,0,0.25)" stroke-width="8"/>
        <rect x="140" y="1040" width="920" height="140" rx="12" fill="${art.box}"/>
        <path d="M230 930 C220 890 236 860 280 850 L420 830 C480 740 540 720 640 716 C760 714 840 760 900 830 L960 850 C990 870 990 920 970 940 L230 940 Z" fill="${art.paint}" stroke="rgba(0,0,0,0.4)" stroke-width="6"/>
        <path d="M450 830 C500 760 550 744 640 742 C730 742 800 780 850 830 Z" fill="#1f2937" opacity="0.85"/>
        <circle cx="360" cy="940" r="62" fill="#111827"/><circle cx="360" cy="940" r="30" fill="#9ca3af"/>
        <circle cx="840" cy="940" r="62" fill="#111827"/><circle cx="840" cy="940" r="30" fill="#9ca3af"/>`;
    case "keyring":
      return `<circle cx="600" cy="420" r="150" fill="none" stroke="${art.trim}" stroke-width="26"/>
        <rect x="585" y="560" width="30" height="90" fill="${art.trim}"/>
        <g transform="translate(0 80)">
          <path d="M420 620 H780 V860 Q780 1010 600 1080 Q420 1010 420 860 Z" fill="${art.colour}" stroke="${art.trim}" stroke-width="22"/>
          ${crest(600, 820, 200, art.trim)}
        </g>`;
    case "mug":
      return `<ellipse cx="560" cy="1120" rx="330" ry="60" fill="rgba(0,0,0,0.15)"/>
        <path d="M860 560 Q1060 560 1060 760 Q1060 960 860 960" fill="none" stroke="${art.colour}" stroke-width="60"/>
        <path d="M260 460 L260 1060 Q560 1140 860 1060 L860 460 Z" fill="${art.colour}" stroke="rgba(0,0,0,0.15)" stroke-width="6"/>
        <ellipse cx="560" cy="460" rx="300" ry="60" fill="${art.trim}"/>
        <ellipse cx="560" cy="465" rx="270" ry="45" fill="#44403c"/>
        ${crest(560, 760, 220, art.trim)}`;
    case "lanyard":
      return `<path d="M380 200 Q300 800 560 1060 M820 200 Q900 800 640 1060" fill="none" stroke="${art.colour}" stroke-width="70" stroke-linecap="round"/>
        <path d="M380 200 Q600 120 820 200" fill="none" stroke="${art.colour}" stroke-width="70"/>
        <rect x="540" y="1040" width="120" height="90" rx="16" fill="${art.trim}"/>
        <path d="M600 1130 L600 1210 Q600 1260 650 1260" fill="none" stroke="#9ca3af" stroke-width="18"/>`;
  }
}

function productSvg(art: Art) {
  const [top, bottom] = art.background;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
    <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
    <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#bg)"/>
    ${drawing(art)}
  </svg>`;
}

/**
 * The stored renditions of a demo product photo: the same keys, widths, formats and hash length
 * as an upload through `prepareProductImage`, made straight from the drawing (already 4:5) at
 * the encoders' fastest settings, since seeding runs on every new install and test run.
 */
async function prepareDemoProductImage(art: Art): Promise<Extract<PreparedProductImage, { ok: true }>> {
  const size = { width: WIDTH, height: HEIGHT };
  return { ok: true, ...(await demoRenditions(productSvg(art), size, PRODUCT_IMAGE_WIDTHS, productImageKey)) };
}

/** Draws and stores every demo photo. */
function storeDemoImages(storage: Storage, arts: Art[]) {
  return twoAtATime(arts, async (art) => {
    const image = await prepareDemoProductImage(art);
    await putAll(storage, image.files);
    return { hash: image.hash, color: image.color };
  });
}

export const demoProductsSeeder: Seeder = {
  name: "demo-products",
  demo: true,
  async run(db: Db, { storage }) {
    const arts = DEMO_PRODUCTS.flatMap((product) => product.images.map((image) => image.art));
    const stored = await storeDemoImages(storage, arts);
    let next = 0;
    for (const [position, product] of DEMO_PRODUCTS.entries()) {
      const images: ProductImage[] = product.images.map((image) => ({ ...stored[next++]!, alt: image.alt }));
      const [row] = await db
        .insert(products)
        .values({
          slug: product.slug,
          title: product.title,
          category: product.category,
          status: product.status ?? "active",
          summary: product.summary,
          description: product.description,
          sizeGuide: product.sizeGuide ?? "",
          optionNames: product.optionNames,
          lowStockThreshold: product.lowStockThreshold ?? 5,
          position,
          images,
        })
        .onConflictDoNothing()
        .returning({ id: products.id });
      // A product of that slug already there (made by hand before the demo ran) is left alone.
      if (!row) continue;
      await db.insert(productVariants).values(
        product.variants.map((variant, index) => ({
          productId: row.id,
          sku: variant.sku,
          options: variant.options,
          price: variant.price,
          memberPrice: variant.memberPrice ?? null,
          stock: variant.stock,
          maxPerOrder: variant.maxPerOrder ?? 10,
          position: index,
        })),
      );
    }
  },
};
