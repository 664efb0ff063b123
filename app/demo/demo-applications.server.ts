import { asc, eq, inArray } from "drizzle-orm";
import { carLabel } from "~/features/applications/application-rules";
import { newTicketCode } from "~/features/tickets/ticket-codes.server";
import type { Db } from "~/server/db/client.server";
import type { Seeder } from "~/server/seed.server";
import { type ApplicationStatus, cars, events, exhibitorPasses, showCarApplications, users } from "../../db/schema";
import { DEMO_ACCOUNTS } from "./demo-accounts.server";

/** The demo event taking show-car applications (demo-events.server.ts). */
export const DEMO_APPLICATIONS_EVENT = "japanese-performance-day";

const NOTES = [
  "Thirty years with the same owner; every service stamped.",
  "Fresh from a two-year restoration, never shown before.",
  "Original paint and interior, 41,000 miles.",
  "Built for time attack, road legal, and driven here.",
  "A rare colour, one of twelve in the UK.",
  "Period modifications only; the history file comes with it.",
];

/**
 * Show-car applications on the demo event, one in each state: the demo member's car approved
 * with the fee to pay (so the member can try Pay the fee), and the demo owners' cars waiting,
 * wait-listed, confirmed with an exhibitor pass, rejected and withdrawn. Needs the demo cars
 * and events, so it runs after both.
 */
export const demoApplicationsSeeder: Seeder = {
  name: "demo-applications",
  demo: true,
  async run(db: Db) {
    const [event] = await db
      .select({ id: events.id, fee: events.applicationFee })
      .from(events)
      .where(eq(events.slug, DEMO_APPLICATIONS_EVENT));
    if (!event) return;
    const staffEmail = DEMO_ACCOUNTS.find((account) => account.role === "organizer")!.email;
    const memberEmail = DEMO_ACCOUNTS.find((account) => account.role === "member")!.email;
    const people = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, [staffEmail, memberEmail]));
    const staffId = people.find((person) => person.email === staffEmail)?.id ?? null;
    const memberId = people.find((person) => person.email === memberEmail)?.id ?? null;
    const garage = await db
      .select({ id: cars.id, ownerId: cars.ownerId, year: cars.year, make: cars.make, model: cars.model })
      .from(cars)
      .orderBy(asc(cars.createdAt), asc(cars.id));
    const mine = garage.find((car) => car.ownerId === memberId);
    // One car per owner, the demo member's first, so no owner applies twice.
    const seen = new Set<string>(mine ? [mine.ownerId] : []);
    const others = garage.filter((car) => !seen.has(car.ownerId) && seen.add(car.ownerId));
    const plan: { car: (typeof garage)[number]; status: ApplicationStatus; decisionNote?: string }[] = [
      ...(mine ? [{ car: mine, status: "approved" as const, decisionNote: "Lovely car. See you in the hall!" }] : []),
      ...(
        [
          { status: "submitted" },
          { status: "paid", decisionNote: "Approved: park in bay 12 of the show hall." },
          { status: "waitlisted", decisionNote: "We are full for now; we will write if a spot frees up." },
          { status: "rejected", decisionNote: "Not Japanese-built, so not for this show. Try Classics on the Green!" },
          { status: "withdrawn" },
          { status: "submitted" },
        ] as const
      ).flatMap((entry, index) => (others[index] ? [{ ...entry, car: others[index]! }] : [])),
    ];
    const now = new Date();
    for (const [index, entry] of plan.entries()) {
      const decided = !["submitted", "withdrawn"].includes(entry.status);
      const fee = ["approved", "paid"].includes(entry.status) ? event.fee : 0;
      const [application] = await db
        .insert(showCarApplications)
        .values({
          eventId: event.id,
          userId: entry.car.ownerId,
          carId: entry.car.id,
          carLabel: carLabel(entry.car),
          note: NOTES[index % NOTES.length]!,
          status: entry.status,
          fee,
          decisionNote: "decisionNote" in entry ? (entry.decisionNote ?? null) : null,
          reviewedBy: decided ? staffId : null,
          reviewedAt: decided ? now : null,
          paidAt: entry.status === "paid" ? now : null,
        })
        .onConflictDoNothing()
        .returning({ id: showCarApplications.id });
      if (application && entry.status === "paid") {
        await db.insert(exhibitorPasses).values({
          applicationId: application.id,
          eventId: event.id,
          userId: entry.car.ownerId,
          code: newTicketCode(),
        });
      }
    }
  },
};
