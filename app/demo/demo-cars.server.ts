import { createHash, randomUUID } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { storeCarPhoto } from "~/features/media/car-photos.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { carLikes, carPhotos, cars, users } from "../../db/schema";
import type { CarVisibility, Drivetrain, Gearbox } from "../../db/schema/garage";
import { DEMO_ACCOUNTS } from "./demo-accounts.server";
import { type CarShape, coverSvg, type Palette, twoAtATime } from "./demo-covers.server";

/**
 * Owners of the demo garages besides the demo member. They have no password or any other way to
 * sign in: they exist only so the community shows more than one person's cars.
 */
export const DEMO_OWNERS = [
  { handle: "rosie.e-type", name: "Rosie Atkinson", town: "Coventry" },
  { handle: "dev_z_cars", name: "Dev Patel", town: "Leicester" },
  { handle: "cossie_kev", name: "Kevin Marsh", town: "Dagenham" },
  { handle: "hannah.rallye", name: "Hannah Lloyd", town: "Cardiff" },
  { handle: "tom_on_track", name: "Tom Reid", town: "Knockhill" },
] as const;

type Owner = (typeof DEMO_OWNERS)[number]["handle"] | "demo-member";

type DemoCar = {
  owner: Owner;
  make: string;
  model: string;
  year: number;
  variant?: string;
  colour: string;
  engine: string;
  powerBhp: number;
  drivetrain: Drivetrain;
  gearbox: Gearbox;
  modifications: string[];
  story: string;
  plate: string;
  platePublic?: boolean;
  visibility: CarVisibility;
  /** How its illustration is drawn: the body, its paint, and the sky and light around it. */
  picture: { shape: CarShape; paint: [string, string]; sky: [string, string]; glow: string };
  /** Days before the seed the car was added, for "newest". */
  addedDaysAgo: number;
  /** Picked by staff for the home page's featured cars. */
  featured?: boolean;
};

const NIGHT: [string, string] = ["#050a14", "#1d2b4a"];
const DUSK: [string, string] = ["#1a0b24", "#7a3b2e"];
const DAY: [string, string] = ["#1f5f8f", "#a9d3ea"];

/**
 * A demo car's id, the same on every install (a name-based UUID), so the benchmarks and
 * documentation can link to one car's page.
 */
export function demoCarId(car: Pick<DemoCar, "make" | "model" | "year">) {
  const hex = createHash("sha256").update(`pitlane demo car: ${car.year} ${car.make} ${car.model}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const DEMO_CARS: DemoCar[] = [
  {
    owner: "rosie.e-type",
    make: "Jaguar",
    model: "E-Type",
    year: 1963,
    variant: "Series 1 3.8 Roadster",
    colour: "Opalescent Silver Blue",
    engine: "3.8 XK straight-six",
    powerBhp: 265,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Five-speed gearbox conversion", "Electronic ignition"],
    story:
      "Bought as a box of parts in 1998 and rebuilt over twelve winters in a single garage.\n\nIt has done the Coventry to Le Mans run twice since, without a tow.",
    plate: "8 EJT",
    platePublic: true,
    visibility: "public",
    featured: true,
    picture: { shape: "roadster", paint: ["#9cc3d9", "#2c4a5e"], sky: DUSK, glow: "#ffb36b" },
    addedDaysAgo: 40,
  },
  {
    owner: "dev_z_cars",
    make: "Datsun",
    model: "240Z",
    year: 1972,
    colour: "Safari Gold",
    engine: "2.4 L24",
    powerBhp: 151,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Triple Weber carburettors", "Polyurethane bushes", "Minilite-style wheels"],
    story: "A US import that spent forty years in Arizona, which is why there is almost no rust.",
    plate: "JRX 240K",
    visibility: "public",
    featured: true,
    picture: { shape: "coupe", paint: ["#e0a43a", "#6b3d0a"], sky: DUSK, glow: "#ffcc70" },
    addedDaysAgo: 35,
  },
  {
    owner: "cossie_kev",
    make: "Ford",
    model: "Sierra RS Cosworth",
    year: 1986,
    variant: "Three-door",
    colour: "Diamond White",
    engine: "2.0 YB turbo",
    powerBhp: 204,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["T34 turbo", "Group A-style arches"],
    story: "One of the first 500 built. The whale-tail spoiler still turns heads at every fuel station.",
    plate: "D455 OHK",
    visibility: "public",
    featured: true,
    picture: { shape: "wing", paint: ["#f4f6f8", "#7d8a96"], sky: NIGHT, glow: "#3de0ff" },
    addedDaysAgo: 30,
  },
  {
    owner: "demo-member",
    make: "Mazda",
    model: "MX-5",
    year: 1991,
    variant: "Eunos Roadster",
    colour: "Classic Red",
    engine: "1.6 B6ZE",
    powerBhp: 115,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Coilovers", "Hardtop", "Momo steering wheel"],
    story: "Imported from Japan in 2004. It has been to every Goodwood meet since.",
    plate: "J123 ABC",
    visibility: "public",
    picture: { shape: "roadster", paint: ["#ff4a3d", "#6a0d16"], sky: NIGHT, glow: "#ffd166" },
    addedDaysAgo: 28,
  },
  {
    owner: "hannah.rallye",
    make: "Peugeot",
    model: "205 GTI",
    year: 1989,
    variant: "1.9",
    colour: "Miami Blue",
    engine: "1.9 XU9JA",
    powerBhp: 128,
    drivetrain: "fwd",
    gearbox: "manual",
    modifications: ["Group N suspension", "Sump guard"],
    story: "My first car, sold at twenty-one and found again, by its plate, twenty years later.",
    plate: "F205 GTI",
    visibility: "public",
    picture: { shape: "hatch", paint: ["#2f7fd8", "#0b2a55"], sky: DAY, glow: "#ffffff" },
    addedDaysAgo: 25,
  },
  {
    owner: "tom_on_track",
    make: "Subaru",
    model: "Impreza WRX STI",
    year: 1999,
    variant: "Type R",
    colour: "Sonic Blue",
    engine: "2.0 EJ207 turbo",
    powerBhp: 276,
    drivetrain: "awd",
    gearbox: "manual",
    modifications: ["Prodrive exhaust", "Roll cage", "Bucket seats"],
    story: "Track days at Knockhill since 2010; it has never missed a session.",
    plate: "T99 STI",
    visibility: "public",
    picture: { shape: "wing", paint: ["#2d4fd6", "#0a1550"], sky: NIGHT, glow: "#ffe066" },
    addedDaysAgo: 21,
  },
  {
    owner: "dev_z_cars",
    make: "Honda",
    model: "S2000",
    year: 2002,
    colour: "New Formula Red",
    engine: "2.0 F20C",
    powerBhp: 237,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Hardtop"],
    story: "Shown to members only while it is being repainted.",
    plate: "Y2K AP1",
    visibility: "members",
    picture: { shape: "roadster", paint: ["#e0242a", "#5a0508"], sky: DUSK, glow: "#ff9f6b" },
    addedDaysAgo: 18,
  },
  {
    owner: "rosie.e-type",
    make: "Volvo",
    model: "240",
    year: 1988,
    variant: "GL Estate",
    colour: "Cypress Green",
    engine: "2.3 B230F",
    powerBhp: 114,
    drivetrain: "rwd",
    gearbox: "automatic",
    modifications: ["Roof bars", "Tow bar"],
    story: "The tow car for the E-Type, and the only car here that has carried a wardrobe.",
    plate: "E240 GLE",
    visibility: "public",
    picture: { shape: "estate", paint: ["#4f7a5a", "#16301f"], sky: DAY, glow: "#ffffff" },
    addedDaysAgo: 15,
  },
  {
    owner: "cossie_kev",
    make: "Porsche",
    model: "911",
    year: 2006,
    variant: "997 Carrera S",
    colour: "Arctic Silver",
    engine: "3.8 flat-six",
    powerBhp: 350,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: ["Sports exhaust"],
    story: "Bought with the proceeds of a very good year. Driven every weekend, rain or shine.",
    plate: "P997 CSS",
    visibility: "public",
    picture: { shape: "coupe", paint: ["#c9ced3", "#4a525a"], sky: NIGHT, glow: "#9ad0ff" },
    addedDaysAgo: 10,
  },
  {
    owner: "tom_on_track",
    make: "McLaren",
    model: "720S",
    year: 2019,
    colour: "Papaya Spark",
    engine: "4.0 twin-turbo V8",
    powerBhp: 710,
    drivetrain: "rwd",
    gearbox: "dct",
    modifications: [],
    story: "A track-day treat: on the road it mostly goes to the shops.",
    plate: "MC19 PAP",
    visibility: "public",
    picture: { shape: "supercar", paint: ["#ff8a1f", "#7a2e00"], sky: NIGHT, glow: "#ffb347" },
    addedDaysAgo: 6,
  },
  {
    owner: "demo-member",
    make: "Lotus",
    model: "Esprit",
    year: 1995,
    variant: "S4",
    colour: "Racing Green",
    engine: "2.2 turbo",
    powerBhp: 264,
    drivetrain: "rwd",
    gearbox: "manual",
    modifications: [],
    story: "Half taken apart in the garage. Private until it runs again.",
    plate: "M95 LTS",
    visibility: "private",
    picture: { shape: "supercar", paint: ["#1f6b3a", "#06210f"], sky: NIGHT, glow: "#ffe9a8" },
    addedDaysAgo: 4,
  },
  {
    owner: "hannah.rallye",
    make: "Toyota",
    model: "GR Yaris",
    year: 2021,
    variant: "Circuit Pack",
    colour: "Precious Black",
    engine: "1.6 G16E-GTS turbo",
    powerBhp: 257,
    drivetrain: "awd",
    gearbox: "manual",
    modifications: ["Sump guard", "Mud flaps"],
    story: "Bought to do what the 205 did, with four-wheel drive and a warranty.",
    plate: "HL21 GRY",
    visibility: "public",
    picture: { shape: "hatch", paint: ["#2a2d33", "#050607"], sky: DUSK, glow: "#ff5a3d" },
    addedDaysAgo: 2,
  },
];

/** Who likes which demo car (by its owner's handle and model), so "most liked" has an order. */
const DEMO_LIKES: [liker: Owner, owner: Owner, model: string][] = [
  ["demo-member", "rosie.e-type", "E-Type"],
  ["dev_z_cars", "rosie.e-type", "E-Type"],
  ["cossie_kev", "rosie.e-type", "E-Type"],
  ["tom_on_track", "rosie.e-type", "E-Type"],
  ["demo-member", "cossie_kev", "Sierra RS Cosworth"],
  ["hannah.rallye", "cossie_kev", "Sierra RS Cosworth"],
  ["tom_on_track", "cossie_kev", "Sierra RS Cosworth"],
  ["rosie.e-type", "demo-member", "MX-5"],
  ["hannah.rallye", "demo-member", "MX-5"],
  ["demo-member", "tom_on_track", "720S"],
  ["cossie_kev", "hannah.rallye", "205 GTI"],
];

/**
 * The demo photos are drawn at a modest size: the pipeline does not enlarge a photo, so every
 * width the layouts ask for still exists, and seeding stays quick on a small server.
 */
const PHOTO_WIDTH = 576;
const PHOTO_HEIGHT = 324;

async function drawCar(car: DemoCar, view: number) {
  const { shape, paint, sky, glow } = car.picture;
  const palette: Palette = { sky: view === 0 ? sky : [sky[1], sky[0]], glow, paint, ground: ["#15181c", "#040506"] };
  const svg = coverSvg({ scene: view === 0 ? "floodlit" : "hills", car: shape, palette }, `${car.model}-${view}`);
  // Drawn at the size wanted (the drawing is 1600 px wide at 72 dpi), not drawn large and shrunk.
  const density = (72 * PHOTO_WIDTH) / 1600;
  return new Uint8Array(
    await sharp(Buffer.from(svg), { density })
      .resize(PHOTO_WIDTH, PHOTO_HEIGHT)
      .png({ compressionLevel: 1 })
      .toBuffer(),
  );
}

async function demoOwnerIds(db: Db) {
  const member = DEMO_ACCOUNTS.find((account) => account.role === "member")!;
  const rows = DEMO_OWNERS.map((owner) => ({
    id: randomUUID(),
    name: owner.name,
    email: `${owner.handle.replace(/[^a-z0-9]+/g, "-")}@owners.pitlane.test`,
    emailVerified: true,
    handle: owner.handle,
    town: owner.town,
    onboardedAt: new Date(),
  }));
  await db.insert(users).values(rows).onConflictDoNothing();
  const found = await db
    .select({ id: users.id, email: users.email, handle: users.handle })
    .from(users)
    .where(inArray(users.email, [member.email, ...rows.map((row) => row.email)]));
  const ids = new Map<Owner, string>();
  for (const row of found) ids.set(row.email === member.email ? "demo-member" : (row.handle as Owner), row.id);
  return ids;
}

export const demoCarsSeeder: Seeder = {
  name: "demo-cars",
  demo: true,
  async run(db, { storage }) {
    const owners = await demoOwnerIds(db);
    const now = Date.now();
    // Each car gets one photo; the first two get a second view for the gallery.
    const jobs = DEMO_CARS.flatMap((car, index) => [{ car, view: 0 }, ...(index < 2 ? [{ car, view: 1 }] : [])]);
    const photos = await twoAtATime(jobs, async (job) => storeCarPhoto(storage, await drawCar(job.car, job.view)));
    const carIds = new Map<DemoCar, string>();
    for (const car of DEMO_CARS) {
      const { owner, picture: _picture, addedDaysAgo, featured, ...details } = car;
      const ownerId = owners.get(owner);
      if (!ownerId) continue;
      const added = new Date(now - addedDaysAgo * 24 * 60 * 60 * 1000);
      const [row] = await db
        .insert(cars)
        .values({
          ...details,
          id: demoCarId(car),
          ownerId,
          variant: details.variant ?? "",
          platePublic: details.platePublic ?? false,
          featuredAt: featured && details.visibility === "public" ? added : null,
          createdAt: added,
          updatedAt: added,
        })
        .returning({ id: cars.id });
      carIds.set(car, row!.id);
    }
    const photoRows = jobs.flatMap((job, index) => {
      const stored = photos[index];
      const carId = carIds.get(job.car);
      if (!stored?.ok || !carId) return [];
      const alt = `Illustration of a ${job.car.colour.toLowerCase()} ${job.car.make} ${job.car.model}${job.view === 0 ? " under floodlights" : " on a country road"}`;
      return [{ carId, ...stored.photo, alt, position: job.view }];
    });
    if (photoRows.length) await db.insert(carPhotos).values(photoRows);

    const likes = DEMO_LIKES.flatMap(([liker, owner, model]) => {
      const car = DEMO_CARS.find((candidate) => candidate.owner === owner && candidate.model === model);
      const carId = car && carIds.get(car);
      const userId = owners.get(liker);
      return carId && userId ? [{ carId, userId }] : [];
    });
    if (likes.length) {
      await db.insert(carLikes).values(likes).onConflictDoNothing();
      await db
        .update(cars)
        .set({ likeCount: sql`(select count(*)::int from car_likes l where l.car_id = "cars"."id")` })
        .where(inArray(cars.id, [...new Set(likes.map((like) => like.carId))]));
    }
  },
};
