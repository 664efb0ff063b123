import { inArray } from "drizzle-orm";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { articles, users } from "../../db/schema";
import { type CoverArt, storeDemoCovers } from "./demo-covers.server";

/**
 * Demo articles for a new install: six published over the last weeks (event reports, a build
 * diary, a guide, news), one scheduled a few days ahead and one draft, so the blog, its search,
 * tags, feed and the staff list all have something in every state. The first has a stable slug
 * and a word found nowhere else ("Hockenheimring"), for the end-to-end tests.
 */

const DAY = 24 * 60 * 60 * 1000;

export const DEMO_ARTICLE_SLUG = "night-meet-at-the-old-airfield";
export const DEMO_SEARCH_WORD = "Hockenheimring";

type DemoArticle = Omit<typeof articles.$inferInsert, "cover" | "authorId" | "publishedAt"> & {
  /** Days from now: negative is past. */
  publishedIn: number | null;
  art: CoverArt;
  alt: string;
  author: "admin@pitlane.test" | "organizer@pitlane.test";
};

const NIGHT = {
  sky: ["#03101a", "#134a5a"],
  glow: "#3de0ff",
  paint: ["#ff4a3d", "#6a0d16"],
  ground: ["#0c1a22", "#04070a"],
} as const;
const SUNSET = {
  sky: ["#1a0710", "#d8572a"],
  glow: "#ffb347",
  paint: ["#f2f2f2", "#3a3d42"],
  ground: ["#2a1410", "#0a0505"],
} as const;
const TRACK = {
  sky: ["#06131f", "#2a6f97"],
  glow: "#ffd166",
  paint: ["#ffd166", "#7a5200"],
  ground: ["#1b2a1b", "#060a06"],
} as const;
const MOON = {
  sky: ["#02040c", "#12304a"],
  glow: "#7fd8ff",
  paint: ["#e9eaec", "#2c3036"],
  ground: ["#0a2438", "#020610"],
} as const;
const GREEN = {
  sky: ["#0b1a12", "#3f7d4e"],
  glow: "#c8ff8a",
  paint: ["#1f6f3f", "#08220f"],
  ground: ["#14240f", "#050a04"],
} as const;
const VIOLET = {
  sky: ["#0d0620", "#4b2a8a"],
  glow: "#d0a2ff",
  paint: ["#8a5cff", "#2a1160"],
  ground: ["#140c26", "#05030a"],
} as const;

const palette = (colours: {
  sky: readonly string[];
  glow: string;
  paint: readonly string[];
  ground: readonly string[];
}) => ({
  sky: [colours.sky[0]!, colours.sky[1]!] as [string, string],
  glow: colours.glow,
  paint: [colours.paint[0]!, colours.paint[1]!] as [string, string],
  ground: [colours.ground[0]!, colours.ground[1]!] as [string, string],
});

function demoArticles(): DemoArticle[] {
  return [
    {
      slug: DEMO_ARTICLE_SLUG,
      title: "Night meet at the old airfield: the report",
      excerpt: "Four hundred cars, one wet apron and a queue for the coffee van that never ended.",
      tags: ["event-report", "news"],
      status: "published",
      publishedIn: -3,
      author: "organizer@pitlane.test",
      art: { scene: "floodlit", backdrop: "hangars", car: "hatch", lights: 2, palette: palette(NIGHT) },
      alt: "Illustration of a red hot hatch under teal floodlights on a wet airfield apron",
      body: `Saturday's night meet was our biggest yet: just over four hundred cars came through the gate between six and ten, and the rain held off until the last hour.

## The cars

Hot hatches made up almost half the field, but the surprise of the night was a left-hand-drive Porsche 944 Turbo that had been driven over from the ${DEMO_SEARCH_WORD} track day the weekend before. Its owner says the trip home took "three ferries and a lot of coffee".

- **Best in show**: a Mk1 Golf GTI in Mars Red, restored over six years
- **Longest journey**: the 944 Turbo, 1,100 km
- **Loudest exhaust**: we will not name names

## In numbers

| | This year | Last year |
| --- | ---: | ---: |
| Cars through the gate | 412 | 305 |
| Show-and-shine entries | 48 | 31 |
| Money raised for the air ambulance | £1,240 | £860 |

## Thanks

> "The best atmosphere of any meet we've been to this year." — a visitor on our community page

Thank you to the marshals who stood in the wet, and to the [Air Ambulance Service](https://www.theairambulanceservice.org.uk) for the charity stand. The next meet is already on the [events page](/events).
`,
    },
    {
      slug: "build-diary-e30-part-one",
      title: "Build diary: the E30 touring, part one",
      excerpt: "Rust, a seized caliper and the first drive in eleven years.",
      tags: ["build-diary"],
      status: "published",
      publishedIn: -9,
      author: "admin@pitlane.test",
      art: { scene: "hills", car: "estate", palette: palette(SUNSET) },
      alt: "Illustration of a white estate car on a hill road at sunset",
      body: `The touring arrived on a trailer in March, having last moved under its own power in 2013. Here is where the first three months went.

## What we found

1. Both rear arches bubbled, the nearside worse
2. A seized front caliper (the reason it was parked, we think)
3. A full service history in the glovebox, which nobody expected

## The work so far

The arches were cut back and new repair sections welded in. The calipers were rebuilt with new seals and pistons, and the fuel tank was drained of something that used to be petrol.

\`\`\`
Parts so far:      £640
Hours in the shed: 71
Skinned knuckles:  uncountable
\`\`\`

### Next

Suspension bushes, and then the MOT. Part two when it passes.
`,
    },
    {
      slug: "first-track-day-guide",
      title: "Your first track day: what to bring and what to expect",
      excerpt: "Helmets, tyre pressures, the briefing and the one rule that matters most.",
      tags: ["guides", "track-days"],
      status: "published",
      publishedIn: -16,
      author: "organizer@pitlane.test",
      art: { scene: "circuit", circuit: "national", palette: palette(TRACK) },
      alt: "Illustration of a circuit map in yellow on a dark blue background",
      body: `A track day is the safest place to find out what your car can do. Here is how to make your first one a good one.

## Before the day

- Check your brake pads and fluid: track driving heats them far more than the road
- Torque your wheel nuts, and bring the wrench
- Fill up: circuits charge a lot for fuel

## On the day

The **drivers' briefing** is compulsory. Listen for the flag meanings and the overtaking rules: most days allow passing on the straights only, on the left, when the car in front indicates.

## The one rule

> Drive at eight tenths, and go home with the car you came in.

Tyre pressures rise as they heat up, so check them after your first session, when they are hot. Read more on the [circuit's own pages](https://www.motorsportuk.org) for safety rules.
`,
    },
    {
      slug: "summer-cruise-to-the-coast",
      title: "Summer cruise to the coast",
      excerpt: "Sixty cars, two hundred kilometres and fish and chips at the end.",
      tags: ["event-report"],
      status: "published",
      publishedIn: -23,
      author: "admin@pitlane.test",
      art: { scene: "coast", car: "coupe", palette: palette(MOON) },
      alt: "Illustration of a silver coupé on a coast road at night under a full moon",
      body: `Sixty cars left the services at nine and arrived at the seafront just after one, with one puncture and no wrong turns (a first).

## The route

We took the B-roads over the downs, stopped at the reservoir for photos, and came down to the coast on the old toll road.

## Next time

Several of you asked for a longer lunch stop. Noted: the autumn cruise will have one.
`,
    },
    {
      slug: "new-season-calendar-announced",
      title: "The new season's calendar is out",
      excerpt: "Twelve meets, four track days and our first show at a racing circuit.",
      tags: ["news"],
      status: "published",
      publishedIn: -30,
      author: "organizer@pitlane.test",
      art: { scene: "floodlit", backdrop: "grandstand", car: "supercar", lights: 3, palette: palette(VIOLET) },
      alt: "Illustration of a violet supercar in front of a floodlit grandstand",
      body: `The full calendar for next season is now on the events page. Highlights:

- **Twelve meets**, including three night meets
- **Four track days**, two of them with tuition
- Our first **show at a racing circuit**, with parade laps

Tickets for the first three events are on sale now. Members get first choice of show-and-shine spaces.
`,
    },
    {
      slug: "detailing-clinic-notes",
      title: "Notes from the detailing clinic",
      excerpt: "Two-bucket washes, clay bars and why your microfibre towels matter.",
      tags: ["guides"],
      status: "published",
      publishedIn: -38,
      author: "admin@pitlane.test",
      art: { scene: "floodlit", backdrop: "city", car: "coupe", lights: 2, palette: palette(GREEN) },
      alt: "Illustration of a green coupé under floodlights with a city skyline behind",
      body: `Thanks to everyone who came to the detailing clinic. Here are the notes, as promised.

## The wash

Use two buckets: one with shampoo, one with clean water to rinse the mitt. Grit stays in the rinse bucket, not on your paint.

## Decontamination

A clay bar removes what washing leaves behind. Work on a small area with plenty of lubricant, and fold the clay often.

## Towels

Wash microfibre towels on their own, without fabric softener, which clogs the fibres.
`,
    },
    {
      slug: "autumn-track-day-preview",
      title: "Preview: the autumn track day",
      excerpt: "Everything you need to know before the season's last day on track.",
      tags: ["track-days", "news"],
      status: "published",
      publishedIn: 4,
      author: "organizer@pitlane.test",
      art: { scene: "circuit", circuit: "kent", palette: palette(TRACK) },
      alt: "Illustration of a circuit map on a dark background",
      body: "Scheduled: this article appears on the blog on its own at its publication time.\n\n## Timetable\n\nSign-on at 7:30, briefing at 8:15, first session at 9.",
    },
    {
      slug: "committee-minutes-draft",
      title: "Committee minutes (draft)",
      excerpt: "Not ready yet.",
      tags: ["news"],
      status: "draft",
      publishedIn: null,
      author: "admin@pitlane.test",
      art: { scene: "hills", car: "roadster", palette: palette(SUNSET) },
      alt: "Illustration of a roadster on a hill road",
      body: "A draft: only staff can see it, in the dashboard and with a preview link.",
    },
  ];
}

export const demoArticlesSeeder: Seeder = {
  name: "demo-articles",
  demo: true,
  async run(db: Db, { storage }) {
    const now = new Date();
    const programme = demoArticles();
    const covers = await storeDemoCovers(
      storage,
      programme.map((article) => ({ art: article.art, seed: `article-${article.slug}` })),
    );
    const staff = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, ["admin@pitlane.test", "organizer@pitlane.test"]));
    const authorOf = (email: string) => staff.find((member) => member.email === email)?.id ?? staff[0]?.id ?? null;
    await db.insert(articles).values(
      programme.map(({ art: _art, alt, publishedIn, author, ...article }, index) => {
        const publishedAt = publishedIn === null ? null : new Date(now.getTime() + publishedIn * DAY);
        return {
          ...article,
          cover: { hash: covers[index]!.coverHash, color: covers[index]!.coverColor, alt },
          authorId: authorOf(author),
          publishedAt,
          createdAt: publishedAt && publishedAt < now ? publishedAt : now,
          updatedAt: publishedAt && publishedAt < now ? publishedAt : now,
        };
      }),
    );
  },
};
