import { eq } from "drizzle-orm";
import { localDate, parseLocalDateTime } from "~/features/dates/time-zones";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { events, ticketTypes, users } from "../../db/schema";
import { type CoverArt, storeDemoCovers } from "./demo-covers.server";

/**
 * Demo events for a new install (past and upcoming events, one
 * multi-day, one sold out, one with applications open). Every date is worked out from the
 * moment of seeding, in the event's own time zone, so a site installed on any day looks alive:
 * the next meet is a week or two away and last month's track day has happened.
 */

const LONDON = "Europe/London";
const DAY_MS = 24 * 60 * 60 * 1000;

type EventRow = typeof events.$inferInsert;
type TicketTypeRow = typeof ticketTypes.$inferInsert;

type DemoTicketType = Omit<TicketTypeRow, "eventId" | "sortOrder">;

export type DemoEvent = Omit<EventRow, "coverHash" | "coverColor" | "createdBy"> & {
  cover: CoverArt;
  tickets: DemoTicketType[];
};

/** Calendar arithmetic on local dates ("2027-06-12"), which have no time zone of their own. */
function addDays(date: string, days: number) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

const WEEKDAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } as const;

/**
 * The first `weekday` at least `days` days from today in `timeZone` (negative: in the past).
 * "The Saturday five weeks from now" is `dayFrom(now, zone, 35, "sat")`.
 */
function dayFrom(now: Date, timeZone: string, days: number, weekday: keyof typeof WEEKDAYS) {
  const start = addDays(localDate(now, timeZone), days);
  const shift = (WEEKDAYS[weekday] - new Date(`${start}T00:00:00Z`).getUTCDay() + 7) % 7;
  return addDays(start, shift);
}

/** A wall-clock time on a local date, as the instant it names in `timeZone`. */
function at(date: string, time: string, timeZone: string) {
  const parsed = parseLocalDateTime(`${date}T${time}`, timeZone);
  // Demo times are chosen outside the hour clocks skip, so this never happens.
  if (!parsed.ok) throw new Error(`${date} ${time} does not exist in ${timeZone}`);
  return parsed.instant;
}

/** When an event runs: from a time on its first day to a time on its last, both in its time zone. */
function runs(firstDay: string, from: string, until: string, options: { lastDay?: string; timeZone?: string } = {}) {
  const { lastDay = firstDay, timeZone = LONDON } = options;
  return { startsAt: at(firstDay, from, timeZone), endsAt: at(lastDay, until, timeZone), timeZone };
}

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/** The cruise's coast road, which the detailing-kit giveaway shows too. */
export const COAST_ROAD_AT_NIGHT: CoverArt = {
  scene: "coast",
  car: "coupe",
  palette: {
    sky: ["#02040c", "#12304a"],
    glow: "#7fd8ff",
    paint: ["#e9eaec", "#2c3036"],
    ground: ["#0a2438", "#020610"],
  },
};

/** The Brands Hatch track day's circuit, which the track-day prize draw shows too. */
export const BRANDS_HATCH_AT_DUSK: CoverArt = {
  scene: "circuit",
  circuit: "kent",
  palette: {
    sky: ["#0d0406", "#2a0a10"],
    glow: "#ff3344",
    paint: ["#f6f6f7", "#454a52"],
    ground: ["#24262c", "#0b0c0e"],
  },
};

/** The demo programme as it stands at `now`. */
export function demoEvents(now: Date): DemoEvent[] {
  const day = (days: number, weekday: keyof typeof WEEKDAYS, timeZone = LONDON) =>
    dayFrom(now, timeZone, days, weekday);

  const coffee = day(7, "sun");
  const cruise = day(14, "sat");
  const brands = day(21, "fri");
  const brooklands = day(28, "sun");
  const silverstoneSat = day(35, "sat");
  const silverstoneSun = addDays(silverstoneSat, 1);
  const japanese = day(42, "sun");
  const classics = day(49, "sun");
  const oulton = day(56, "wed");
  const peaks = day(63, "sun");
  const castleCombe = day(77, "fri");
  const ringFri = day(84, "fri", "Europe/Berlin");
  const ringDays = [ringFri, addDays(ringFri, 1), addDays(ringFri, 2)];
  const toyRun = day(98, "sat");
  const santaPod = day(-14, "fri");
  const cotswolds = day(-21, "sun");
  const thruxton = day(-42, "mon");
  const stoneleighSat = day(-70, "sat");
  const stoneleighSun = addDays(stoneleighSat, 1);

  return [
    {
      slug: "sunday-service-coffee-and-cars",
      title: "Sunday Service: coffee and cars",
      type: "meet",
      status: "published",
      ...runs(coffee, "08:00", "12:00"),
      venue: "Bicester Heritage",
      address: "Buckingham Road, Bicester",
      town: "Bicester",
      postcode: "OX27 8AL",
      latitude: 51.917,
      longitude: -1.134,
      summary:
        "Our monthly Sunday morning meet: proper coffee, bacon rolls and three hundred cars on the old airfield.",
      description: `## The easiest morning out in the calendar

Bring whatever you drive. Sunday Service is where the club catches up: restored classics next to
daily-driven hot hatches, the odd supercar and at least one lovingly rusty Land Rover.

## What's on
- Show-and-shine parking on the apron, first come, first served
- Coffee, pastries and bacon rolls from the hangar café from 08:00
- The club's pick of the morning, announced at 11:30

## Good to know
- Display parking is for cars only; motorbikes park by the gate for free
- Please arrive and leave quietly: no revving, no wheelspin, neighbours are close
- Dogs on leads are welcome`,
      capacity: 600,
      publishedAt: daysAgo(now, 20),
      cover: {
        scene: "floodlit",
        backdrop: "hangars",
        car: "hatch",
        lights: 2,
        palette: {
          sky: ["#03101a", "#134a5a"],
          glow: "#3de0ff",
          paint: ["#ff4a3d", "#6a0d16"],
          ground: ["#0c1a22", "#04070a"],
        },
      },
      coverAlt: "Illustration of a red hot hatch in side profile under teal floodlights on a wet airfield apron",
      tickets: [
        {
          name: "Show-and-shine parking",
          description: "A display space for one car on the apron. Includes the driver.",
          price: 500,
          capacity: 150,
          maxPerOrder: 2,
          sold: 64,
        },
        {
          name: "Spectator",
          description: "Free: book so we know how many bacon rolls to order.",
          price: 0,
          capacity: null,
          maxPerOrder: 6,
          sold: 121,
        },
      ],
    },
    {
      slug: "midnight-cruise-to-the-coast",
      title: "Midnight cruise to the coast",
      type: "cruise",
      status: "published",
      ...runs(cruise, "21:30", "00:00", { lastDay: addDays(cruise, 1) }),
      venue: "Burford Bridge car park, Box Hill",
      address: "Old London Road, Mickleham, Dorking",
      town: "Dorking",
      postcode: "RH5 6BY",
      latitude: 51.2566,
      longitude: -0.3242,
      summary: "Sixty cars in convoy over the South Downs to Madeira Drive, arriving on the seafront at midnight.",
      description: `## The route

We gather at Box Hill from 21:00 for a briefing at 21:30, then head south in marshalled groups of
ten over the Downs and into Brighton, finishing on **Madeira Drive** at about midnight.

1. Box Hill to Dorking and the A24
2. Over the Downs via Washington
3. Along the coast road to Brighton seafront

## The rules
- Road legal, insured and taxed; MOT where it applies
- Speed limits all the way: it's a cruise, not a race
- Keep your group in your mirrors and let marshals set the pace

Route cards and window stickers are handed out at the briefing.`,
      publishedAt: daysAgo(now, 25),
      cover: COAST_ROAD_AT_NIGHT,
      coverAlt:
        "Illustration of a silver coupé on a coast road at night, with a full moon over the sea and a lighthouse",
      tickets: [
        {
          name: "Car and driver",
          description: "One car in the convoy, its driver, a route card and a window sticker.",
          price: 1500,
          capacity: 60,
          maxPerOrder: 1,
          sold: 38,
        },
        {
          name: "Passenger",
          description: "Riding along in a booked car.",
          price: 500,
          capacity: 90,
          maxPerOrder: 3,
          sold: 29,
        },
      ],
    },
    {
      slug: "brands-hatch-track-day",
      title: "Brands Hatch Indy track day",
      type: "track_day",
      status: "published",
      ...runs(brands, "08:00", "17:00"),
      venue: "Brands Hatch Circuit",
      address: "Fawkham, Longfield",
      town: "Longfield",
      postcode: "DA3 8NG",
      latitude: 51.3569,
      longitude: 0.2631,
      summary: "An open-pit-lane day on the Indy circuit with capped numbers, timed sessions and tuition on hand.",
      description: `## Open pit lane, capped numbers

Forty cars on the 1.2-mile Indy circuit: Paddock Hill Bend, Druids, and as many laps as your
tyres can take. Sign-on opens at 07:30, the drivers' briefing is at 08:15 and the track goes
green at 09:00.

## You will need
- A road-legal car in good order, with a tow eye fitted
- A helmet (hire available at sign-on) and long sleeves
- A full driving licence

## Noise
The static limit is **105 dB(A)**; drive-by is monitored. Loud exhausts will be asked to pit.`,
      publishedAt: daysAgo(now, 60),
      cover: BRANDS_HATCH_AT_DUSK,
      coverAlt: "Illustration of a race circuit seen from above, glowing red on a dark grid, with a winged track car",
      tickets: [
        {
          name: "Car and driver",
          description: "One car and its named driver for the whole day.",
          price: 18900,
          capacity: 40,
          maxPerOrder: 1,
          sold: 40,
        },
        {
          name: "Additional driver",
          description: "A second named driver sharing a booked car.",
          price: 4900,
          capacity: 20,
          maxPerOrder: 1,
          sold: 20,
        },
        {
          name: "Passenger wristband",
          description: "Ride along with a booked driver. Over-16s only.",
          price: 1500,
          capacity: 30,
          maxPerOrder: 2,
          sold: 30,
        },
      ],
    },
    {
      slug: "supercar-sunday-at-brooklands",
      title: "Supercar Sunday at Brooklands",
      type: "meet",
      status: "published",
      ...runs(brooklands, "10:00", "15:00"),
      venue: "Brooklands Museum",
      address: "Brooklands Road, Weybridge",
      town: "Weybridge",
      postcode: "KT13 0SL",
      latitude: 51.3503,
      longitude: -0.47,
      summary: "Exotics on the Finishing Straight of the world's first purpose-built motor racing circuit.",
      description: `## Where it all started

Brooklands opened in 1907. For one Sunday, the Finishing Straight and the foot of the Test Hill
are lined with the fastest cars our members own.

## Highlights
- Display cars parked on the Finishing Straight
- Test Hill demonstration runs at 12:00 and 14:00
- Museum entry included with every ticket

Display places are nearly gone: if you want your car on the straight, book now.`,
      capacity: 520,
      publishedAt: daysAgo(now, 45),
      cover: {
        scene: "floodlit",
        backdrop: "banking",
        car: "supercar",
        lights: 4,
        palette: {
          sky: ["#0a0410", "#3a0c3a"],
          glow: "#ff3df0",
          paint: ["#ffd21a", "#6a4a00"],
          ground: ["#180a1a", "#060308"],
        },
      },
      coverAlt: "Illustration of a yellow mid-engined supercar in side profile under magenta floodlights",
      tickets: [
        {
          name: "Display car",
          description: "A place on the Finishing Straight for one car and its driver.",
          price: 2000,
          capacity: 120,
          maxPerOrder: 1,
          sold: 113,
        },
        {
          name: "Spectator",
          description: "Entry to the meet and the museum.",
          price: 1200,
          capacity: 400,
          maxPerOrder: 6,
          sold: 372,
        },
      ],
    },
    {
      slug: "silverstone-festival-of-speed",
      title: "Silverstone Festival of Speed",
      type: "show",
      status: "published",
      headline: true,
      ...runs(silverstoneSat, "09:00", "18:00", { lastDay: silverstoneSun }),
      venue: "Silverstone Circuit",
      address: "Silverstone Circuit, Towcester",
      town: "Silverstone",
      postcode: "NN12 8TN",
      latitude: 52.0733,
      longitude: -1.0147,
      summary:
        "Two days, two thousand club cars and the Wing lit up after dark: the biggest weekend of the club's year.",
      description: `## The club's big weekend

Two full days at the home of British motor racing. Club stands fill the infield, the Wing hosts the
concours, and the International Pit Straight opens for parade laps on both afternoons.

## Saturday
- Club stands and the traders' village from 09:00
- Concours judging in the Wing
- Parade laps at 16:00

## Sunday
- Show car of the weekend, announced at 15:00
- Drift demonstrations at Stowe
- Parade laps at 16:30

## Tickets
Day tickets admit on their day; the **weekend pass** admits on both days and needs each
attendee's name. Show cars book a display pass for the club stands. Under-12s go free with a
paying adult.`,
      capacity: 6000,
      publishedAt: daysAgo(now, 90),
      cover: {
        scene: "floodlit",
        backdrop: "grandstand",
        car: "coupe",
        lights: 4,
        palette: {
          sky: ["#05070f", "#2a1a3a"],
          glow: "#ff7a1a",
          paint: ["#d9dde4", "#3a3f4a"],
          ground: ["#1a1520", "#07070a"],
        },
      },
      coverAlt:
        "Illustration of a silver sports coupé in side profile under orange floodlights on a wet paddock at night",
      tickets: [
        {
          name: "Saturday day ticket",
          description: "Entry on Saturday.",
          price: 2400,
          capacity: 2500,
          maxPerOrder: 8,
          days: [silverstoneSat],
          sold: 1240,
        },
        {
          name: "Sunday day ticket",
          description: "Entry on Sunday.",
          price: 2400,
          capacity: 2500,
          maxPerOrder: 8,
          days: [silverstoneSun],
          sold: 1012,
        },
        {
          name: "Weekend pass",
          description: "Entry on both days. Each pass is named.",
          price: 3900,
          capacity: 1500,
          maxPerOrder: 6,
          days: [silverstoneSat, silverstoneSun],
          sold: 846,
        },
        {
          name: "Show car display pass",
          description: "A place for your car on the club stands both days, with entry for its driver.",
          price: 4500,
          capacity: 300,
          maxPerOrder: 1,
          days: [silverstoneSat, silverstoneSun],
          sold: 214,
        },
      ],
    },
    {
      slug: "japanese-performance-day",
      title: "Japanese Performance Day",
      type: "show",
      status: "published",
      ...runs(japanese, "09:00", "17:00"),
      venue: "Donington Park",
      address: "Castle Donington, Derby",
      town: "Castle Donington",
      postcode: "DE74 2RP",
      latitude: 52.8306,
      longitude: -1.3797,
      summary: "JDM heroes, time-attack builds and a show-car hall of fame. Show-car applications are open now.",
      description: `## From Skylines to Kei cars

Japanese Performance Day brings the best of the scene to Donington: Skylines, Supras, Evos and
Imprezas, plus the quietly brilliant Kei cars and the wildest time-attack builds in the country.

## On the day
- Show-car hall in the paddock, judged at 14:00
- Time-attack demonstration runs on the National circuit
- Drift taxi rides (booked on the day)
- Traders, parts swap and the club shop

## Show cars
Want your car in the hall? **Apply below** before the deadline: we pick 150 cars for variety and
quality, not just power figures.`,
      capacity: 4000,
      applicationsOpen: true,
      applicationsDeadline: at(addDays(japanese, -14), "23:59", LONDON),
      applicationSpots: 150,
      applicationFee: 1500,
      applicationCriteria: `## What we look for
- Japanese-built or Japanese-market cars of any age
- Clean, finished builds: no primer, no missing panels
- Something the crowd hasn't seen a hundred times

## How it works
1. Apply with your car from your garage and two or three good photos
2. We reply within a week of the deadline
3. Approved cars pay the **£15 display fee**, which includes the driver's entry`,
      publishedAt: daysAgo(now, 30),
      cover: {
        scene: "floodlit",
        backdrop: "city",
        car: "wing",
        lights: 3,
        palette: {
          sky: ["#07031a", "#2a0f4a"],
          glow: "#b14dff",
          paint: ["#f6f6f7", "#5a5f6a"],
          ground: ["#140a24", "#05030a"],
        },
      },
      coverAlt: "Illustration of a white Japanese coupé with a tall rear wing under violet floodlights",
      tickets: [
        { name: "Adult", description: "Entry for one adult.", price: 1800, capacity: null, maxPerOrder: 8, sold: 640 },
        {
          name: "Child (5–15)",
          description: "Under-5s go free.",
          price: 600,
          capacity: null,
          maxPerOrder: 8,
          sold: 85,
        },
        {
          name: "Family",
          description: "Two adults and up to three children.",
          price: 4800,
          capacity: 300,
          maxPerOrder: 2,
          sold: 47,
        },
        {
          name: "Show car entry",
          description: "Issued to approved show-car applications only.",
          price: 0,
          capacity: 150,
          maxPerOrder: 1,
          hidden: true,
          sold: 0,
        },
      ],
    },
    {
      slug: "classics-on-the-green",
      title: "Classics on the Green",
      type: "show",
      status: "cancelled",
      ...runs(classics, "10:00", "16:00"),
      venue: "British Motor Museum",
      address: "Banbury Road, Gaydon, Warwick",
      town: "Gaydon",
      postcode: "CV35 0BJ",
      latitude: 52.1877,
      longitude: -1.488,
      summary: "Pre-1990 classics on the museum's show field, with the club's restoration awards.",
      description: `## Classics on the show field

Our classics day at Gaydon: pre-1990 cars on the show field, the restoration awards at 14:00 and
the museum's collection open to every ticket holder.

- Pre-1990 display cars only
- Restoration awards judged by the club's committee
- Museum entry included`,
      capacity: 1800,
      cancelReason:
        "The show field is waterlogged after weeks of rain and the museum has closed it for the season. Every ticket has been refunded in full, and we will announce a new date as soon as we have one.",
      cancelledAt: daysAgo(now, 3),
      publishedAt: daysAgo(now, 50),
      cover: {
        scene: "floodlit",
        backdrop: "trees",
        car: "roadster",
        lights: 3,
        palette: {
          sky: ["#0a0a08", "#3a2a10"],
          glow: "#ffb020",
          paint: ["#2f7d4a", "#0d2a18"],
          ground: ["#1c1a14", "#080806"],
        },
      },
      coverAlt: "Illustration of a British racing green classic roadster under amber floodlights",
      tickets: [
        { name: "Adult", description: "Entry and museum admission.", price: 1500, capacity: 1500, maxPerOrder: 6 },
        {
          name: "Classic display",
          description: "A show-field place for one pre-1990 car and its driver.",
          price: 1000,
          capacity: 200,
          maxPerOrder: 1,
        },
      ],
    },
    {
      slug: "oulton-park-novice-track-evening",
      title: "Oulton Park novice track evening",
      type: "track_day",
      status: "published",
      ...runs(oulton, "16:30", "20:30"),
      venue: "Oulton Park Circuit",
      address: "Little Budworth, Tarporley",
      town: "Tarporley",
      postcode: "CW6 9BW",
      latitude: 53.179,
      longitude: -2.613,
      summary: "Your first time on track: small groups, an instructor in every car and no timing.",
      description: `## Never driven on a circuit?

This evening is built for you. Twenty-four drivers, split into three groups, each with an
ARDS-qualified instructor in the passenger seat for the first session.

## How the evening runs
1. Sign-on and noise test from 16:00
2. Classroom briefing on flags, lines and etiquette
3. Three 20-minute sessions on the Island circuit

No lap timing, no overtaking except on the straights, and no pressure.`,
      publishedAt: daysAgo(now, 14),
      cover: {
        scene: "circuit",
        circuit: "parkland",
        palette: {
          sky: ["#030814", "#0a1a3a"],
          glow: "#4da3ff",
          paint: ["#ffffff", "#3a4a6a"],
          ground: ["#1f2633", "#0b0c0e"],
        },
      },
      coverAlt: "Illustration of a parkland race circuit seen from above, outlined in blue light",
      tickets: [
        {
          name: "Novice driver with instructor",
          description: "One car, its driver, the briefing and an instructor for the first session.",
          price: 14900,
          capacity: 24,
          maxPerOrder: 1,
          sold: 9,
        },
        {
          name: "Passenger",
          description: "Ride along after the first session. Over-16s only.",
          price: 1500,
          capacity: 24,
          maxPerOrder: 1,
          sold: 4,
        },
      ],
    },
    {
      slug: "peak-district-sunrise-run",
      title: "Peak District sunrise run",
      type: "cruise",
      status: "published",
      ...runs(peaks, "05:30", "10:30"),
      venue: "Cat and Fiddle",
      address: "Macclesfield Road, Buxton",
      town: "Buxton",
      postcode: "SK11 0AR",
      latitude: 53.2393,
      longitude: -1.9975,
      summary: "The Cat and Fiddle, the Snake Pass and Ladybower at first light, then breakfast.",
      description: `## Empty roads and a sunrise

An early start rewards you with the best driving roads in England before the traffic wakes up.

## Route
- The Cat and Fiddle to Buxton
- Over the Snake Pass as the sun comes up
- Along Ladybower Reservoir to breakfast at the Yorkshire Bridge

Fuel up the night before: there is nowhere open on the route at that hour.`,
      publishedAt: daysAgo(now, 10),
      cover: {
        scene: "hills",
        car: "hatch",
        palette: {
          sky: ["#1a1a3a", "#ff8a3d"],
          glow: "#ffb36b",
          paint: ["#ffd21a", "#6a4a00"],
          ground: ["#4a2f55", "#0c0a12"],
        },
      },
      coverAlt: "Illustration of a yellow hot hatch on a moorland road as the sun rises over layered hills",
      tickets: [
        {
          name: "Car and driver",
          description: "One car, its driver, a route book and breakfast.",
          price: 1200,
          capacity: 50,
          maxPerOrder: 1,
          sold: 11,
        },
        {
          name: "Passenger with breakfast",
          description: "Riding along in a booked car, breakfast included.",
          price: 800,
          capacity: 50,
          maxPerOrder: 3,
          sold: 6,
        },
      ],
    },
    {
      slug: "castle-combe-night-meet",
      title: "Castle Combe night meet",
      type: "meet",
      status: "published",
      ...runs(castleCombe, "19:00", "22:30"),
      venue: "Castle Combe Circuit",
      address: "Castle Combe, Chippenham",
      town: "Chippenham",
      postcode: "SN14 7EY",
      latitude: 51.492,
      longitude: -2.215,
      summary: "The paddock after dark: floodlights, food trucks and two hundred cars on the tarmac.",
      description: `## A meet under the lights

Castle Combe opens its paddock for an evening meet. Park up, grab something from the food trucks
and wander the rows.

- Paddock open from 19:00, last entry 21:00
- Food trucks and a coffee van
- Photo spot on the pit wall`,
      capacity: 500,
      publishedAt: daysAgo(now, 7),
      cover: {
        scene: "floodlit",
        backdrop: "trees",
        car: "estate",
        lights: 2,
        palette: {
          sky: ["#06060c", "#1c2440"],
          glow: "#9fb8ff",
          paint: ["#3c6cff", "#0c1a4a"],
          ground: ["#12151f", "#05060a"],
        },
      },
      coverAlt: "Illustration of a blue fast estate car in side profile under white floodlights",
      tickets: [
        {
          name: "Car entry",
          description: "One car in the paddock and its driver.",
          price: 800,
          capacity: 200,
          maxPerOrder: 2,
          sold: 57,
        },
        { name: "Spectator", description: "Walk-in entry.", price: 0, capacity: 300, maxPerOrder: 6, sold: 41 },
      ],
    },
    {
      slug: "nurburgring-nordschleife-weekend",
      title: "Nürburgring Nordschleife weekend",
      type: "track_day",
      status: "published",
      ...runs(ringFri, "10:00", "17:00", { lastDay: ringDays[2]!, timeZone: "Europe/Berlin" }),
      venue: "Nürburgring Nordschleife",
      address: "Döttinger Höhe, Nürburg",
      town: "Nürburg",
      postcode: "53520",
      latitude: 50.3444,
      longitude: 6.9588,
      summary: "Three days in the Eifel: a club tour to the Green Hell, with Touristenfahrten laps and a guided drive.",
      description: `## The Green Hell

The club's trip to the Nordschleife: twenty-four cars, three days, 20.8 km and 73 corners.

## Included
- Hotel in Adenau for three nights, breakfast included
- A guided sighting drive with an instructor on Friday
- Eight Touristenfahrten laps per car
- Group dinner on Saturday

## Not included
- The Channel crossing (we travel together on the Thursday night)
- Fuel, tyres and brakes: you will need all three

Tickets go on sale soon. Times on this page are local Nürburg time.`,
      salesStartAt: at(addDays(localDate(now, LONDON), 10), "19:00", LONDON),
      publishedAt: daysAgo(now, 2),
      cover: {
        scene: "hills",
        car: "wing",
        palette: {
          sky: ["#0b1420", "#7fb48a"],
          glow: "#c6ff6b",
          paint: ["#2a2e35", "#0b0c0e"],
          ground: ["#2d5a3a", "#050a06"],
        },
      },
      coverAlt: "Illustration of a dark track car with a rear wing above forested hills at dawn",
      tickets: [
        {
          name: "Car and driver, three days",
          description: "One car and its driver, hotel, sighting drive and eight laps.",
          price: 49500,
          capacity: 24,
          maxPerOrder: 1,
          days: ringDays,
        },
        {
          name: "Passenger, three days",
          description: "Shares a room and a car with a booked driver.",
          price: 17500,
          capacity: 24,
          maxPerOrder: 1,
          days: ringDays,
        },
      ],
    },
    {
      slug: "charity-toy-run",
      title: "Charity toy run",
      type: "cruise",
      status: "draft",
      ...runs(toyRun, "10:00", "14:00"),
      venue: "Sandown Park",
      address: "Portsmouth Road, Esher",
      town: "Esher",
      postcode: "KT10 9AJ",
      latitude: 51.372,
      longitude: -0.36,
      summary: "A convoy of club cars carrying toys to the children's ward. Route and partner to be confirmed.",
      description: `## Draft

Convoy from Sandown Park to the hospital, toys collected at the start. Route to confirm with the
police liaison before this is published.`,
      publishedAt: null,
      cover: {
        scene: "floodlit",
        backdrop: "city",
        car: "hatch",
        lights: 3,
        palette: {
          sky: ["#0a0508", "#3a0a16"],
          glow: "#ff4d6d",
          paint: ["#f6f6f7", "#6a6f7a"],
          ground: ["#1c0c12", "#070305"],
        },
      },
      coverAlt: "Illustration of a white hatchback under red floodlights",
      tickets: [
        {
          name: "Car and driver",
          description: "Bring a new, unwrapped toy.",
          price: 1000,
          capacity: 150,
          maxPerOrder: 1,
        },
      ],
    },
    {
      slug: "santa-pod-friday-night-meet",
      title: "Santa Pod Friday night meet",
      type: "meet",
      status: "published",
      ...runs(santaPod, "18:30", "22:30"),
      venue: "Santa Pod Raceway",
      address: "Airfield Road, Podington, Wellingborough",
      town: "Wellingborough",
      postcode: "NN29 7XA",
      latitude: 52.237,
      longitude: -0.596,
      summary: "A meet on the strip's return road, with run-what-you-brung passes down the quarter mile.",
      description: `## Run what you brung

Park on the return road, then take your car down the quarter mile with a timing slip to prove it.

- Passes from 19:00, scrutineering at the tower
- Helmets required for every pass
- Timing slips printed at the end of the strip`,
      capacity: 800,
      publishedAt: daysAgo(now, 40),
      cover: {
        scene: "floodlit",
        backdrop: "strip",
        car: "wing",
        lights: 2,
        palette: {
          sky: ["#0d0602", "#4a1a06"],
          glow: "#ff5a1f",
          paint: ["#1f2226", "#0b0c0e"],
          ground: ["#1f140c", "#080504"],
        },
      },
      coverAlt: "Illustration of a black drag car with a rear wing under orange floodlights at a drag strip",
      tickets: [
        {
          name: "Car entry with passes",
          description: "One car, its driver and unlimited passes.",
          price: 1000,
          capacity: 300,
          maxPerOrder: 2,
          sold: 214,
        },
        {
          name: "Spectator",
          description: "Grandstand and paddock.",
          price: 500,
          capacity: 500,
          maxPerOrder: 6,
          sold: 188,
        },
      ],
    },
    {
      slug: "cotswolds-scenic-drive",
      title: "Cotswolds scenic drive",
      type: "cruise",
      status: "published",
      ...runs(cotswolds, "09:30", "15:30"),
      venue: "Broadway Tower",
      address: "Middle Hill, Broadway",
      town: "Broadway",
      postcode: "WR12 7LB",
      latitude: 52.025,
      longitude: -1.842,
      summary: "Honey-stone villages and empty B-roads, with lunch by the river at Bourton-on-the-Water.",
      description: `## Eighty miles of the Cotswolds

A relaxed drive for every kind of car, from Broadway Tower through Stow-on-the-Wold to lunch at
Bourton-on-the-Water, and back over the hills.

- Route book and stickers at the start
- Lunch is included
- Finishes at Broadway Tower for photos`,
      publishedAt: daysAgo(now, 70),
      cover: {
        scene: "hills",
        car: "roadster",
        palette: {
          sky: ["#2a1a3a", "#ffb36b"],
          glow: "#ffd58a",
          paint: ["#c8202f", "#4a060c"],
          ground: ["#6a5a3a", "#14100a"],
        },
      },
      coverAlt: "Illustration of a red classic roadster on a country road over golden hills",
      tickets: [
        {
          name: "Car and driver",
          description: "One car, its driver, a route book and lunch.",
          price: 1000,
          capacity: 40,
          maxPerOrder: 1,
          sold: 40,
        },
        {
          name: "Passenger",
          description: "Lunch included.",
          price: 500,
          capacity: 40,
          maxPerOrder: 3,
          sold: 26,
        },
      ],
    },
    {
      slug: "thruxton-track-day",
      title: "Thruxton track day",
      type: "track_day",
      status: "published",
      ...runs(thruxton, "08:30", "17:00"),
      venue: "Thruxton Circuit",
      address: "Thruxton, Andover",
      town: "Andover",
      postcode: "SP11 8PW",
      latitude: 51.2085,
      longitude: -1.607,
      summary: "The fastest circuit in the UK, on a sessioned day with a maximum of thirty-five cars.",
      description: `## Flat out through Church

Thruxton is fast, flowing and unforgiving. This day runs in three sessioned groups so everyone gets
clear laps.

- Novice, intermediate and fast groups
- Instructors available by the session
- 98 dB(A) static noise limit`,
      publishedAt: daysAgo(now, 100),
      cover: {
        scene: "circuit",
        circuit: "national",
        palette: {
          sky: ["#0a0a04", "#2a2606"],
          glow: "#ffd21a",
          paint: ["#f6f6f7", "#454a52"],
          ground: ["#24262c", "#0b0c0e"],
        },
      },
      coverAlt: "Illustration of an airfield race circuit seen from above, outlined in yellow light",
      tickets: [
        {
          name: "Car and driver",
          description: "One car and its driver for the day.",
          price: 16900,
          capacity: 35,
          maxPerOrder: 1,
          sold: 33,
        },
        { name: "Passenger", description: "Over-16s only.", price: 1500, capacity: 35, maxPerOrder: 2, sold: 12 },
      ],
    },
    {
      slug: "stoneleigh-restoration-show",
      title: "Stoneleigh restoration show",
      type: "show",
      status: "published",
      ...runs(stoneleighSat, "09:00", "17:00", { lastDay: stoneleighSun }),
      venue: "Stoneleigh Park",
      address: "Stoneleigh, Kenilworth",
      town: "Kenilworth",
      postcode: "CV8 2LG",
      latitude: 52.3485,
      longitude: -1.522,
      summary: "Barn finds, half-finished projects and concours winners under one roof, with an autojumble.",
      description: `## Projects of every stage

The restoration show celebrates the work: barn finds as found, projects halfway through, and
finished cars that took a decade.

## Both days
- Restoration workshops: welding, paint and trim
- The autojumble in Hall 2
- Project of the year, judged on Sunday`,
      capacity: 5000,
      publishedAt: daysAgo(now, 120),
      cover: {
        scene: "floodlit",
        backdrop: "hangars",
        car: "roadster",
        lights: 4,
        palette: {
          sky: ["#0a0c0a", "#23301f"],
          glow: "#f6e7c8",
          paint: ["#f1e4c4", "#6a5a3a"],
          ground: ["#1a1c18", "#070806"],
        },
      },
      coverAlt: "Illustration of a cream classic roadster under warm white floodlights",
      tickets: [
        {
          name: "Saturday",
          description: "Entry on Saturday.",
          price: 1600,
          capacity: 2000,
          maxPerOrder: 8,
          days: [stoneleighSat],
          sold: 1480,
        },
        {
          name: "Sunday",
          description: "Entry on Sunday.",
          price: 1600,
          capacity: 2000,
          maxPerOrder: 8,
          days: [stoneleighSun],
          sold: 1305,
        },
        {
          name: "Weekend",
          description: "Entry on both days. Each ticket is named.",
          price: 2800,
          capacity: 800,
          maxPerOrder: 6,
          days: [stoneleighSat, stoneleighSun],
          sold: 512,
        },
      ],
    },
  ];
}

export const demoEventsSeeder: Seeder = {
  name: "demo-events",
  demo: true,
  async run(db: Db, { storage }) {
    const programme = demoEvents(new Date());
    // The images first: the slow part needs no database, and a failure leaves nothing half-made.
    const covers = await storeDemoCovers(
      storage,
      programme.map((event) => ({ art: event.cover, seed: event.slug })),
    );
    const [organizer] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, "organizer@pitlane.test"))
      .limit(1);

    const inserted = await db
      .insert(events)
      .values(
        programme.map(({ cover: _cover, tickets: _tickets, ...event }, index) => ({
          ...event,
          ...covers[index]!,
          createdBy: organizer?.id ?? null,
        })),
      )
      .returning({ id: events.id, slug: events.slug });
    const idOf = new Map(inserted.map((row) => [row.slug, row.id]));

    await db
      .insert(ticketTypes)
      .values(
        programme.flatMap((event) =>
          event.tickets.map((ticket, sortOrder) => ({ ...ticket, eventId: idOf.get(event.slug)!, sortOrder })),
        ),
      );
  },
};
