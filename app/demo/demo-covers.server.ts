import { createHash } from "node:crypto";
import sharp from "sharp";
import { type PreparedCover, storeCover } from "~/features/events/cover.server";
import { COVER_ASPECT, COVER_WIDTHS, coverKey } from "~/features/events/cover-urls";
import { seededRandom } from "~/server/seeded-random";
import type { Storage } from "~/server/storage/storage.server";

/**
 * Cover art for the demo events, drawn locally as SVG (bold gradients with
 * a car silhouette or a track outline, never downloaded) and stored exactly where and how an
 * uploaded cover is: the same keys, widths, formats and hash length, through `storeCover`.
 */

const WIDTH = 1600;
const HEIGHT = 900;

export type CarShape = "coupe" | "hatch" | "roadster" | "estate" | "supercar" | "wing";
/** What stands behind the paddock: it says where the meet is before anyone reads the title. */
type Backdrop = "hangars" | "grandstand" | "city" | "trees" | "banking" | "strip";
type CircuitShape = "kent" | "national" | "parkland";

export type Palette = {
  /** Sky from top to horizon. */
  sky: [string, string];
  /** The colour the lights throw: haze, beams, rim light on the car. */
  glow: string;
  /** The car's paint, from highlight to shadow. */
  paint: [string, string];
  /** Ground from horizon to the bottom edge. */
  ground: [string, string];
};

export type CoverArt =
  | { scene: "floodlit"; car: CarShape; palette: Palette; lights?: number; backdrop?: Backdrop }
  | { scene: "circuit"; circuit: CircuitShape; palette: Palette }
  | { scene: "coast"; car: CarShape; palette: Palette }
  | { scene: "hills"; car: CarShape; palette: Palette };

/** A small seeded generator, so the same event always gets the same stars and haze. */
function randomFrom(seed: string) {
  return seededRandom(createHash("sha256").update(seed).digest().readUInt32LE(0));
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The ways the drawings' gradients run. */
const DOWN = { x1: 0, y1: 0, x2: 0, y2: 1 };
const DIAGONAL = { x1: 0, y1: 0, x2: 1, y2: 1 };
const LEFTWARD = { x1: 1, y1: 0, x2: 0, y2: 0 };
const CENTRED = { cx: 0.5, cy: 0.5, r: 0.5 };

/** A gradient's colour stop: where it sits, its colour and, when not opaque, its opacity. */
const stop = (offset: number, colour: string, opacity?: number) =>
  `<stop offset="${offset}" stop-color="${colour}"${opacity === undefined ? "" : ` stop-opacity="${opacity}"`}/>`;

/** An SVG gradient, written from its geometry attributes and its stops. */
function gradient(kind: "linear" | "radial", id: string, geometry: Record<string, number>, ...stops: string[]) {
  const attributes = Object.entries(geometry)
    .map(([name, value]) => ` ${name}="${value}"`)
    .join("");
  return `<${kind}Gradient id="${id}"${attributes}>${stops.join("")}</${kind}Gradient>`;
}

/** A colour between two "#rrggbb" colours. */
function mix(from: string, to: string, amount: number) {
  const channel = (hex: string, i: number) => Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
  return `#${[0, 1, 2]
    .map((i) =>
      Math.round(channel(from, i) + (channel(to, i) - channel(from, i)) * amount)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

type CarDrawing = {
  /** Length of the drawing in its own units; the ground is at y = 300. */
  length: number;
  body: string;
  glass: string;
  wheels: [number, number];
  wheelRadius: number;
  headlight: [number, number];
  taillight: [number, number];
  /** Extra dark parts drawn over the body (spoilers, sills, door lines). */
  details?: string;
};

/** Side profiles facing left. Arches are cut around the wheels so the tyres sit inside them. */
const CARS: Record<CarShape, CarDrawing> = {
  coupe: {
    length: 1000,
    body: "M30 226 C22 204 26 180 50 170 C130 152 230 142 330 130 C400 80 452 62 545 58 C652 56 735 82 832 124 C902 134 955 144 974 162 C988 180 988 210 976 226 C970 236 956 238 940 238 L887 238 A90 90 0 0 0 707 238 L287 238 A90 90 0 0 0 107 238 L56 238 C42 238 33 234 30 226 Z",
    glass: "M356 130 C414 88 460 74 546 72 C640 71 704 90 790 126 L612 130 L604 78 L592 130 Z",
    wheels: [197, 797],
    wheelRadius: 70,
    headlight: [52, 178],
    taillight: [978, 172],
    details: "M300 196 L700 196",
  },
  hatch: {
    length: 860,
    body: "M26 222 C18 200 22 176 46 166 C110 152 180 144 250 136 C310 82 350 58 430 54 L640 52 C690 54 722 70 746 102 L802 160 C818 190 818 222 800 234 L764 236 A86 86 0 0 0 592 236 L260 236 A86 86 0 0 0 88 236 L52 236 C38 236 30 232 26 222 Z",
    glass:
      "M276 134 C328 90 362 68 432 66 L520 65 L520 134 Z M536 65 L634 64 C668 66 690 78 708 100 L730 132 L536 134 Z",
    wheels: [174, 678],
    wheelRadius: 68,
    headlight: [46, 174],
    taillight: [806, 168],
    details: "M240 190 L620 190",
  },
  roadster: {
    length: 900,
    body: "M20 208 C14 182 30 164 70 160 C110 140 170 130 232 136 C290 140 344 142 404 140 L452 146 C500 156 560 156 604 146 C614 128 650 120 676 132 C730 126 790 134 830 150 C870 164 890 186 886 212 C884 228 872 236 852 236 L806 236 A82 82 0 0 0 642 236 L262 236 A82 82 0 0 0 98 236 L46 236 C30 236 22 226 20 208 Z",
    glass: "M396 144 L436 84 L452 84 L470 146 Z",
    wheels: [180, 724],
    wheelRadius: 64,
    headlight: [48, 176],
    taillight: [880, 184],
    details: "M120 186 C220 176 340 172 450 172 M470 150 C520 160 570 160 600 150 M12 214 L60 214 M846 222 L892 222",
  },
  estate: {
    length: 1000,
    body: "M28 224 C20 200 26 178 50 170 C120 156 220 146 300 138 C360 84 402 64 474 60 L900 56 C934 58 950 70 958 96 L978 176 C986 206 980 228 960 236 L886 238 A88 88 0 0 0 710 238 L286 238 A88 88 0 0 0 110 238 L56 238 C40 238 31 234 28 224 Z",
    glass:
      "M326 136 C378 92 412 74 476 72 L600 71 L600 136 Z M616 71 L770 70 L770 136 L616 136 Z M786 70 L898 68 C922 70 934 80 940 100 L948 134 L786 136 Z",
    wheels: [198, 798],
    wheelRadius: 70,
    headlight: [50, 178],
    taillight: [972, 160],
    details: "M290 196 L720 196",
  },
  supercar: {
    length: 1000,
    body: "M14 214 L24 182 C120 168 260 156 380 146 C440 112 488 96 560 92 C640 90 700 106 772 138 L950 146 C976 150 988 166 988 190 L986 222 C984 232 972 236 956 236 L893 236 A86 86 0 0 0 721 236 L293 236 A86 86 0 0 0 121 236 L40 236 C24 236 14 228 14 214 Z",
    glass: "M404 146 C460 116 498 104 560 102 C626 101 680 114 730 138 Z",
    wheels: [207, 807],
    wheelRadius: 72,
    headlight: [34, 188],
    taillight: [984, 176],
    details: "M600 160 L700 160 L760 200 L640 200 Z",
  },
  wing: {
    length: 1000,
    body: "M30 226 C22 204 26 182 50 172 C130 156 230 146 320 136 C392 84 444 66 532 62 C640 60 720 82 812 122 C884 132 944 142 968 160 C984 176 986 208 976 226 C968 236 954 238 938 238 L887 238 A90 90 0 0 0 707 238 L287 238 A90 90 0 0 0 107 238 L56 238 C42 238 33 234 30 226 Z M868 130 L884 92 L896 92 L888 132 Z M938 146 L948 92 L960 92 L958 150 Z M836 80 L990 72 L994 90 L840 98 Z",
    glass: "M346 136 C404 92 450 78 534 76 C626 75 690 92 770 126 L600 130 L594 82 L582 134 Z",
    wheels: [197, 797],
    wheelRadius: 70,
    headlight: [52, 180],
    taillight: [978, 174],
    details: "M300 200 L700 200",
  },
};

/**
 * A car in side profile, placed with its wheels on the ground at `groundY` and `width` pixels
 * long: paint gradient, glass, rim light in the scene's glow, lit head- and taillights.
 */
function car(
  shape: CarShape,
  palette: Palette,
  id: string,
  place: { x: number; groundY: number; width: number; facing?: "left" | "right" },
) {
  const drawing = CARS[shape];
  const { x, groundY, width } = place;
  const scale = width / drawing.length;
  const right = place.facing === "right";
  const r = drawing.wheelRadius;
  const wheels = drawing.wheels
    .map((cx) => {
      const spokes = Array.from({ length: 5 }, (_, i) => {
        const angle = (i * 2 * Math.PI) / 5 - Math.PI / 2;
        return `M${cx} 232 L${round(cx + Math.cos(angle) * r * 0.6)} ${round(232 + Math.sin(angle) * r * 0.6)}`;
      }).join(" ");
      // The brake caliper in the scene's glow: the detail car people look for first.
      const caliper = `M${round(cx + r * 0.44)} ${round(232 - r * 0.2)} A${round(r * 0.48)} ${round(r * 0.48)} 0 0 0 ${round(cx + r * 0.2)} ${round(232 - r * 0.44)}`;
      return `<circle cx="${cx}" cy="232" r="${r}" fill="#050608"/>
        <circle cx="${cx}" cy="232" r="${round(r * 0.7)}" fill="url(#${id}-rim)"/>
        <path d="${caliper}" stroke="${palette.glow}" stroke-width="${round(r * 0.14)}" fill="none" stroke-linecap="round"/>
        <path d="${spokes}" stroke="#0b0d12" stroke-width="${round(r * 0.2)}" stroke-linecap="round"/>
        <circle cx="${cx}" cy="232" r="${round(r * 0.7)}" fill="none" stroke="#0b0d12" stroke-width="3"/>
        <circle cx="${cx}" cy="232" r="${round(r * 0.13)}" fill="#2a2e35"/>`;
    })
    .join("");
  const [hx, hy] = drawing.headlight;
  const [tx, ty] = drawing.taillight;
  const [paint, shade] = palette.paint;
  return `<defs>${[
    gradient("linear", `${id}-paint`, DOWN, stop(0, paint), stop(0.4, paint), stop(0.62, shade), stop(1, "#050608")),
    gradient("linear", `${id}-glass`, DIAGONAL, stop(0, "#1b2230"), stop(0.45, palette.glow, 0.3), stop(1, "#06080c")),
    gradient("radial", `${id}-rim`, { cx: 0.4, cy: 0.35, r: 0.7 }, stop(0, "#b9bec7"), stop(1, "#2c3036")),
    gradient("radial", `${id}-head`, CENTRED, stop(0, "#ffffff"), stop(0.25, "#fff6dc", 0.9), stop(1, "#fff6dc", 0)),
    gradient("radial", `${id}-tail`, CENTRED, stop(0, "#ffd0d0"), stop(0.25, "#ff2a3a", 0.9), stop(1, "#ff2a3a", 0)),
    gradient("linear", `${id}-beam`, LEFTWARD, stop(0, "#fff6dc", 0.55), stop(1, "#fff6dc", 0)),
  ].join("")}</defs>
    <g transform="translate(${round(right ? x + width : x)} ${round(groundY - 300 * scale)}) scale(${right ? "-" : ""}${round(scale * 1000) / 1000} ${round(scale * 1000) / 1000})">
      <ellipse cx="${drawing.length / 2}" cy="302" rx="${drawing.length * 0.56}" ry="16" fill="#000" opacity="0.7"/>
      <path d="M${hx} ${hy} L${hx - 620} ${hy - 70} L${hx - 620} ${hy + 150} Z" fill="url(#${id}-beam)"/>
      <path d="${drawing.body}" fill="url(#${id}-paint)" fill-rule="evenodd"/>
      <path d="${drawing.body}" fill="none" stroke="${palette.glow}" stroke-width="4" stroke-opacity="0.9" stroke-linejoin="round"/>
      <path d="${drawing.glass}" fill="url(#${id}-glass)"/>
      ${drawing.details ? `<path d="${drawing.details}" fill="#050608" fill-opacity="0.35" stroke="#fff" stroke-opacity="0.3" stroke-width="3"/>` : ""}
      ${wheels}
      <ellipse cx="${hx}" cy="${hy}" rx="46" ry="24" fill="url(#${id}-head)"/>
      <ellipse cx="${tx}" cy="${ty}" rx="44" ry="26" fill="url(#${id}-tail)"/>
    </g>`;
}

function sky(palette: Palette, horizon: number) {
  const { ground, glow } = palette;
  const [top, low] = palette.sky;
  return `<defs>${[
    gradient("linear", "sky", DOWN, stop(0, top), stop(round(horizon / HEIGHT), low), stop(1, low)),
    gradient("linear", "ground", DOWN, stop(0, ground[0]), stop(1, ground[1])),
    gradient("radial", "haze", CENTRED, stop(0, glow, 0.55), stop(1, glow, 0)),
    gradient("linear", "beam", DOWN, stop(0, "#ffffff", 0.38), stop(1, glow, 0)),
  ].join("")}</defs>
    <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#sky)"/>`;
}

function stars(random: () => number, count: number, maxY: number) {
  return Array.from(
    { length: count },
    () =>
      `<circle cx="${round(random() * WIDTH)}" cy="${round(random() * maxY)}" r="${round(0.8 + random() * 1.6)}" fill="#fff" opacity="${round(0.25 + random() * 0.6)}"/>`,
  ).join("");
}

/** Silhouettes on the horizon at `horizon`, lit here and there in the scene's glow. */
function backdrop(kind: Backdrop, palette: Palette, horizon: number, random: () => number) {
  const dark = "#05060a";
  switch (kind) {
    case "hangars":
      return [80, 640, 1180]
        .map((x, i) => {
          const w = 380 - i * 40;
          const h = 120 - i * 15;
          return `<path d="M${x} ${horizon} L${x} ${horizon - h * 0.55} Q${x + w / 2} ${horizon - h * 1.5} ${x + w} ${horizon - h * 0.55} L${x + w} ${horizon} Z" fill="${dark}"/>
            <rect x="${x + w * 0.2}" y="${round(horizon - h * 0.5)}" width="${round(w * 0.6)}" height="${round(h * 0.5)}" fill="${palette.glow}" opacity="0.28"/>
            <rect x="${x + w * 0.2}" y="${round(horizon - h * 0.5)}" width="${round(w * 0.6)}" height="4" fill="#fffbe8" opacity="0.8"/>`;
        })
        .join("");
    case "grandstand": {
      const seats = Array.from(
        { length: 6 },
        (_, i) =>
          `<path d="M60 ${horizon - 20 - i * 18} L1180 ${horizon - 34 - i * 21}" stroke="${palette.glow}" stroke-opacity="${round(0.25 + i * 0.06)}" stroke-width="4"/>`,
      ).join("");
      return `<path d="M40 ${horizon} L40 ${horizon - 130} L1200 ${horizon - 160} L1200 ${horizon} Z" fill="${dark}"/>
        <path d="M40 ${horizon - 130} L1200 ${horizon - 160} L1200 ${horizon - 40} L40 ${horizon - 16} Z" fill="${palette.glow}" opacity="0.12"/>
        ${seats}
        <path d="M0 ${horizon - 150} L1240 ${horizon - 196} L1240 ${horizon - 182} L0 ${horizon - 136} Z" fill="#0b0d12"/>
        <path d="M0 ${horizon - 136} L1240 ${horizon - 182}" stroke="#fffbe8" stroke-opacity="0.7" stroke-width="3"/>`;
    }
    case "city":
      return Array.from({ length: 16 }, (_, i) => {
        const w = 70 + random() * 50;
        const h = 110 + random() * 200;
        const x = i * 102 - 20;
        const windows = Array.from({ length: Math.floor(h / 26) * 3 }, (_, j) => {
          if (random() > 0.35) return "";
          const colour = random() < 0.5 ? palette.glow : "#fff1c2";
          return `<rect x="${round(x + 12 + (j % 3) * ((w - 24) / 3))}" y="${round(horizon - h + 14 + Math.floor(j / 3) * 26)}" width="${round((w - 24) / 3 - 8)}" height="10" fill="${colour}" opacity="0.7"/>`;
        }).join("");
        return `<rect x="${round(x)}" y="${round(horizon - h)}" width="${round(w)}" height="${round(h)}" fill="${dark}"/>${windows}`;
      }).join("");
    case "trees":
      return `<path d="M-20 ${horizon} ${Array.from({ length: 42 }, (_, i) => {
        const x = i * 40;
        const r = 26 + random() * 34;
        return `L${x} ${round(horizon - 30 - r * 0.4)} A${round(r)} ${round(r)} 0 0 1 ${x + 40} ${round(horizon - 30 - r * 0.4)}`;
      }).join(" ")} L1640 ${horizon} Z" fill="${mix(palette.sky[1], dark, 0.7)}"/>`;
    case "banking":
      // The sweep of an old concrete banking, rising away to the right.
      return `<path d="M-20 ${horizon} L-20 ${horizon - 30} C420 ${horizon - 40} 900 ${horizon - 110} 1640 ${horizon - 250} L1640 ${horizon} Z" fill="#0b0d12"/>
        <path d="M-20 ${horizon - 30} C420 ${horizon - 40} 900 ${horizon - 110} 1640 ${horizon - 250}" fill="none" stroke="${palette.glow}" stroke-opacity="0.6" stroke-width="4"/>
        <path d="M-20 ${horizon - 12} C420 ${horizon - 18} 900 ${horizon - 60} 1640 ${horizon - 150}" fill="none" stroke="#fffbe8" stroke-opacity="0.12" stroke-width="3"/>`;
    case "strip": {
      // A drag strip's start lights: three ambers, then green.
      const bulbs = ["#ffb020", "#ffb020", "#ffb020", "#36ff8a", "#ff2a3a"]
        .map(
          (colour, i) =>
            `<circle cx="1230" cy="${horizon - 210 + i * 30}" r="11" fill="${colour}"/><circle cx="1270" cy="${horizon - 210 + i * 30}" r="11" fill="${colour}"/>`,
        )
        .join("");
      return `<path d="M-20 ${horizon} L-20 ${horizon - 70} L900 ${horizon - 90} L900 ${horizon} Z" fill="${dark}"/>
        <rect x="1244" y="${horizon - 240}" width="12" height="240" fill="${dark}"/>
        <rect x="1208" y="${horizon - 232}" width="84" height="154" rx="10" fill="#0b0d12"/>
        ${bulbs}
        <circle cx="1250" cy="${horizon - 120}" r="120" fill="url(#haze)" opacity="0.6"/>`;
    }
  }
}

/** A night paddock under floodlight towers, wet tarmac throwing the lights back. */
function floodlit(art: Extract<CoverArt, { scene: "floodlit" }>, random: () => number) {
  const horizon = 560;
  const towers = art.lights ?? 3;
  const lights = Array.from({ length: towers }, (_, i) => {
    const x = round(((i + 0.5) / towers) * WIDTH + (random() - 0.5) * 160);
    const top = round(90 + random() * 90);
    const lamps = Array.from(
      { length: 4 },
      (_, j) => `<rect x="${x - 52 + j * 27}" y="${top - 18}" width="22" height="14" rx="3" fill="#fffbe8"/>`,
    ).join("");
    return `<ellipse cx="${x}" cy="${top}" rx="330" ry="240" fill="url(#haze)"/>
      <path d="M${x - 50} ${top} L${x - 460} 900 L${x + 460} 900 L${x + 50} ${top} Z" fill="url(#beam)" opacity="0.5"/>
      <rect x="${x - 6}" y="${top}" width="12" height="${horizon - top}" fill="#05060a"/>
      <rect x="${x - 60}" y="${top - 24}" width="120" height="26" rx="4" fill="#0a0b10"/>
      ${lamps}
      <ellipse cx="${x}" cy="${top - 10}" rx="120" ry="40" fill="url(#haze)"/>
      <ellipse cx="${x}" cy="${horizon + 150}" rx="40" ry="180" fill="${art.palette.glow}" opacity="0.14"/>`;
  }).join("");
  const vanishing = 600 + random() * 400;
  const bays = Array.from({ length: 15 }, (_, i) => {
    const bottom = -600 + i * 200;
    return `<path d="M${round(vanishing + (bottom - vanishing) * 0.18)} ${horizon} L${bottom} 900" stroke="#e9eaec" stroke-opacity="0.09" stroke-width="4"/>`;
  }).join("");
  // A row of parked cars on the horizon: a meet, not an empty car park.
  const parked = Array.from({ length: 24 }, (_, i) => {
    const w = 60 + random() * 70;
    const h = 14 + random() * 26;
    const x = i * 70 - 20;
    return `<path d="M${round(x)} ${horizon} L${round(x + 8)} ${round(horizon - h * 0.6)} L${round(x + w * 0.3)} ${round(horizon - h)} L${round(x + w * 0.75)} ${round(horizon - h)} L${round(x + w - 6)} ${round(horizon - h * 0.55)} L${round(x + w)} ${horizon} Z" fill="#05060a" opacity="0.9"/>`;
  }).join("");
  const carWidth = art.car === "hatch" ? 820 : 960;
  const facing = random() < 0.5 ? "left" : "right";
  const x = (WIDTH - carWidth) / 2 + (facing === "left" ? 60 : -60);
  const place = { x, groundY: 800, width: carWidth, facing } as const;
  return `${sky(art.palette, horizon)}
    ${stars(random, 40, 300)}
    ${art.backdrop ? backdrop(art.backdrop, art.palette, horizon, random) : ""}
    ${lights}
    ${parked}
    <rect y="${horizon}" width="${WIDTH}" height="${HEIGHT - horizon}" fill="url(#ground)"/>
    ${bays}
    <rect y="${horizon}" width="${WIDTH}" height="3" fill="${art.palette.glow}" opacity="0.35"/>
    <ellipse cx="${x + carWidth / 2}" cy="800" rx="${carWidth * 0.7}" ry="60" fill="url(#haze)" opacity="0.6"/>
    <g opacity="0.22" transform="translate(0 1600) scale(1 -1)">${car(art.car, art.palette, "mirror", place)}</g>
    <rect y="802" width="${WIDTH}" height="98" fill="${art.palette.ground[1]}" opacity="0.5"/>
    ${car(art.car, art.palette, "car", place)}`;
}

const CIRCUITS: Record<CircuitShape, string> = {
  // A flowing club circuit in the style of the Kent hills: a long top straight, a hairpin, a loop.
  kent: "M360 640 L1120 640 C1260 640 1330 560 1300 460 C1280 390 1210 370 1160 400 C1110 430 1060 420 1040 370 C1010 290 1090 230 1170 250 C1260 272 1330 230 1320 170 C1310 110 1230 96 1120 110 L520 180 C400 196 330 250 340 320 C350 380 420 410 480 400 C560 386 600 430 560 480 C520 530 400 520 330 540 C260 560 270 640 360 640 Z",
  // A parkland circuit: rises and falls through the trees, a tight hairpin at the far end.
  parkland:
    "M260 600 C200 560 210 470 280 440 L520 340 C600 306 640 240 610 180 C590 130 640 90 700 110 L1000 200 C1080 224 1120 180 1180 150 C1250 114 1330 150 1330 220 C1330 290 1260 300 1220 340 C1180 380 1220 430 1280 450 C1350 474 1360 560 1290 600 C1220 640 1120 610 1040 580 C960 550 900 580 860 620 C800 680 700 680 620 650 L260 600 Z",
  // An airfield circuit: wide, fast, long straights joined by sweeping corners.
  national:
    "M300 620 C240 620 210 560 240 500 L420 210 C450 160 520 150 570 180 L760 300 C800 325 850 320 880 290 L1060 130 C1110 90 1190 100 1230 150 C1280 210 1300 300 1270 380 L1180 600 C1160 650 1110 680 1050 680 L300 620 Z",
};

/** The chequered start line across the main straight of each circuit. */
function startLine(shape: CircuitShape) {
  const [x, y, angle] = { kent: [700, 640, 0], national: [700, 660, 4.7], parkland: [440, 620, 8.2] }[shape];
  const squares = Array.from({ length: 16 }, (_, i) => {
    const column = i % 2;
    const row = Math.floor(i / 2);
    return `<rect x="${column * 12 - 12}" y="${row * 8 - 32}" width="12" height="8" fill="${(column + row) % 2 ? "#fff" : "#05060a"}"/>`;
  }).join("");
  return `<g transform="translate(${x} ${y}) rotate(${angle})">${squares}</g>`;
}

/** A circuit seen from above, glowing like a timing screen, with kerbs and the start line. */
function circuit(art: Extract<CoverArt, { scene: "circuit" }>, random: () => number) {
  const path = CIRCUITS[art.circuit];
  const grid = Array.from({ length: 17 }, (_, i) => `<path d="M${i * 100} 0 L${i * 100} 900" />`)
    .concat(Array.from({ length: 10 }, (_, i) => `<path d="M0 ${i * 100} L1600 ${i * 100}" />`))
    .join("");
  return `${sky(art.palette, 900)}
    <g stroke="${art.palette.glow}" stroke-opacity="0.08" stroke-width="2">${grid}</g>
    ${stars(random, 30, 900)}
    <ellipse cx="800" cy="420" rx="760" ry="420" fill="url(#haze)" opacity="0.55"/>
    <g transform="translate(0 60)">
      <path d="${path}" fill="none" stroke="${art.palette.glow}" stroke-opacity="0.25" stroke-width="120" stroke-linejoin="round"/>
      <path d="${path}" fill="none" stroke="#e9eaec" stroke-width="74" stroke-linejoin="round"/>
      <path d="${path}" fill="none" stroke="#d7263d" stroke-width="74" stroke-dasharray="22 22" stroke-linejoin="round"/>
      <path d="${path}" fill="none" stroke="${art.palette.ground[0]}" stroke-width="62" stroke-linejoin="round"/>
      <path d="${path}" fill="none" stroke="${art.palette.glow}" stroke-width="6" stroke-dasharray="60 28" stroke-linejoin="round"/>
      ${startLine(art.circuit)}
    </g>
    ${car("wing", art.palette, "car", { x: 980, groundY: 880, width: 560 })}`;
}

/** The coast road at night: a moon over the sea, a lighthouse, and a cruise's light trails. */
function coast(art: Extract<CoverArt, { scene: "coast" }>, random: () => number) {
  const horizon = 430;
  const shore = 720;
  const moonX = 420;
  const glints = Array.from({ length: 60 }, (_, i) => {
    const y = horizon + 6 + i * 4.6;
    const spread = 30 + i * 4;
    const w = 12 + random() * (40 + i);
    return `<rect x="${round(moonX + (random() - 0.5) * spread * 2 - w / 2)}" y="${round(y)}" width="${round(w)}" height="2" rx="1" fill="#fff4d6" opacity="${round(0.8 - i * 0.01)}"/>`;
  }).join("");
  const posts = Array.from(
    { length: 34 },
    (_, i) => `<rect x="${i * 50}" y="${shore - 34}" width="6" height="34" fill="#0b0d12"/>`,
  ).join("");
  const trail = (
    y: number,
    colour: string,
  ) => `<path d="M-20 ${y + 18} C400 ${y - 10} 1100 ${y + 10} 1620 ${y - 14}" fill="none" stroke="${colour}" stroke-width="22" stroke-opacity="0.22"/>
    <path d="M-20 ${y + 18} C400 ${y - 10} 1100 ${y + 10} 1620 ${y - 14}" fill="none" stroke="${colour}" stroke-width="6" stroke-opacity="0.95"/>`;
  return `${sky(art.palette, horizon)}
    ${stars(random, 120, 400)}
    <circle cx="${moonX}" cy="190" r="230" fill="url(#haze)"/>
    <circle cx="${moonX}" cy="190" r="64" fill="#fff4d6"/>
    <rect y="${horizon}" width="${WIDTH}" height="${HEIGHT - horizon}" fill="url(#ground)"/>
    ${glints}
    <path d="M900 ${horizon + 4} L926 ${horizon - 34} C1010 ${horizon - 62} 1160 ${horizon - 86} 1380 ${horizon - 96} L1620 ${horizon - 100} L1620 ${shore} L1000 ${shore} L972 ${horizon + 170} L948 ${horizon + 80} Z" fill="#05060b"/>
    <path d="M1372 ${horizon - 94} L1378 ${horizon - 170} L1396 ${horizon - 170} L1402 ${horizon - 94} Z" fill="#e9eaec"/>
    <rect x="1372" y="${horizon - 186}" width="30" height="16" fill="#fff6b0"/>
    <path d="M1387 ${horizon - 178} L560 ${horizon - 300} L560 ${horizon - 190} Z" fill="url(#beam)" opacity="0.5"/>
    <path d="M-20 ${shore} L1620 ${shore} L1620 900 L-20 900 Z" fill="#0d0f16"/>
    ${posts}
    <rect y="${shore - 36}" width="${WIDTH}" height="8" fill="#1a1d26"/>
    ${trail(shore + 40, "#ff2a3a")}
    ${trail(shore + 150, "#fff6dc")}
    ${car(art.car, art.palette, "car", { x: 520, groundY: 836, width: 720 })}`;
}

/** Layered hills at first light, a road over the crest, a car stopped to watch the sunrise. */
function hills(art: Extract<CoverArt, { scene: "hills" }>, random: () => number) {
  const horizon = 520;
  const shades = [0, 0.35, 0.7, 1].map((amount) => mix(art.palette.ground[0], art.palette.ground[1], amount));
  const layers = shades
    .map((shade, layer) => {
      const base = horizon - 70 + layer * 90;
      const points = Array.from({ length: 9 }, (_, i) => `L${i * 200} ${round(base - random() * (120 - layer * 20))}`);
      return `<path d="M0 900 L0 ${base} ${points.join(" ")} L1600 900 Z" fill="${shade}"/>`;
    })
    .join("");
  // A lane climbing into the hills from the road the car has stopped on.
  const lane = "M260 872 C360 780 520 740 600 680 C680 620 620 580 720 540";
  const road = "M-40 880 C400 862 900 872 1640 852";
  return `${sky(art.palette, horizon)}
    ${stars(random, 25, 180)}
    <circle cx="520" cy="${horizon - 120}" r="460" fill="url(#haze)"/>
    <circle cx="520" cy="${horizon - 120}" r="110" fill="#ffd58a"/>
    ${layers}
    <path d="${lane}" fill="none" stroke="#2b2530" stroke-width="46" stroke-linecap="round"/>
    <path d="${lane}" fill="none" stroke="#f6e7c8" stroke-width="3" stroke-dasharray="22 20" stroke-opacity="0.6"/>
    <path d="${road}" fill="none" stroke="#1d1a22" stroke-width="96"/>
    <path d="${road}" fill="none" stroke="#f6e7c8" stroke-width="4" stroke-dasharray="44 36" stroke-opacity="0.7" transform="translate(0 20)"/>
    ${car(art.car, art.palette, "car", { x: 760, groundY: 872, width: 760, facing: "right" })}`;
}

export function coverSvg(art: CoverArt, seed: string) {
  const random = randomFrom(seed);
  const scene =
    art.scene === "floodlit"
      ? floodlit(art, random)
      : art.scene === "circuit"
        ? circuit(art, random)
        : art.scene === "coast"
          ? coast(art, random)
          : hills(art, random);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${scene}</svg>`;
}

/**
 * The stored renditions of a demo cover. Uploads go through `prepareCover`, whose AVIF at effort 4
 * costs about two seconds a cover on a two-core server; seeding runs on every new install, every
 * end-to-end run and CI, and demo art is flat colour that encodes as well at the fastest effort.
 * So this makes the same files as `prepareCover` (keys from `coverKey`, every width in
 * COVER_WIDTHS, AVIF and WebP, 16:9, no metadata, a 32-character content hash, the dominant
 * colour) straight from the drawing, which is already 16:9 and needs no crop.
 */
async function prepareDemoCover(art: CoverArt, seed: string): Promise<Extract<PreparedCover, { ok: true }>> {
  const largest = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? WIDTH;
  const size = { width: largest, height: Math.round(largest / COVER_ASPECT) };
  return { ok: true, ...(await demoRenditions(coverSvg(art, seed), size, COVER_WIDTHS, coverKey)) };
}

/**
 * The renditions of a demo drawing, as the upload pipeline would store them: the drawing at
 * `size` as the master, a 32-character hash of its pixels, AVIF and WebP at each width with the
 * master's aspect, and the dominant colour. The encoders run at their fastest settings, since
 * seeding runs on every new install and test run.
 */
export async function demoRenditions(
  svg: string,
  size: { width: number; height: number },
  widths: readonly number[],
  keyOf: (hash: string, width: number, format: "avif" | "webp") => string,
) {
  const { data, info } = await sharp(Buffer.from(svg))
    .resize(size.width, size.height)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const master = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const hash = createHash("sha256").update(data).digest("hex").slice(0, 32);
  const files = await Promise.all(
    widths.flatMap((width) => {
      const sized = master().resize(width, Math.round((width * size.height) / size.width));
      return [
        sized
          .clone()
          .avif({ quality: 50, effort: 0, chromaSubsampling: "4:2:0" })
          .toBuffer()
          .then((bytes) => ({ key: keyOf(hash, width, "avif"), bytes, contentType: "image/avif" })),
        sized
          .clone()
          .webp({ quality: 78, effort: 1 })
          .toBuffer()
          .then((bytes) => ({ key: keyOf(hash, width, "webp"), bytes, contentType: "image/webp" })),
      ];
    }),
  );
  // The dominant colour of a thumbnail is the same as the full image's, at a tenth of the work.
  const thumbnail = files.find((file) => file.key === keyOf(hash, widths[0]!, "webp"))!;
  const { dominant } = await sharp(thumbnail.bytes).stats();
  const color = `#${[dominant.r, dominant.g, dominant.b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
  return { hash, color, files };
}

/** Draws and stores one cover per entry. */
export function storeDemoCovers(storage: Storage, covers: { art: CoverArt; seed: string }[]) {
  return twoAtATime(covers, async (cover) => storeCover(storage, await prepareDemoCover(cover.art, cover.seed)));
}

/**
 * `work` done on every item, two at a time to keep both cores of a small server busy (drawing and
 * encoding demo pictures is most of a seed's time), with the results in the items' order.
 */
export async function twoAtATime<Item, Result>(items: readonly Item[], work: (item: Item) => Promise<Result>) {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}
