import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyers, createTestEvent, NOW } from "~/features/checkout/stock.test-support";
import { paidOrder } from "~/features/orders/paid-orders.test-support";
import { freshDatabasePerFile } from "~/server/db/test-database";
import { tickets } from "../../../db/schema";
import { checkInTicket } from "./check-in.server";
import { signTicketCode, verifySignedTicketCode } from "./ticket-codes.server";

const database = freshDatabasePerFile();
const secret = "test-secret-test-secret-test-secret-0123";

async function issuedTickets(quantity: number) {
  const { db } = database();
  const { typeIds, eventId } = await createTestEvent(db, { types: [{ name: "Entry" }] });
  const [member] = await createBuyers(db, 1);
  const { id } = await paidOrder(db, member!, [{ ticketTypeId: typeIds[0]!, quantity }], NOW, NOW);
  const rows = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(eq(tickets.orderId, id));
  return { eventId, tickets: rows };
}

describe("checkInTicket", () => {
  it("admits a scanned ticket once; a second scan says when and by whom", async () => {
    const { db } = database();
    const { eventId, tickets: issued } = await issuedTickets(1);
    const [steward, marshal] = await createBuyers(db, 2);
    const code = verifySignedTicketCode(signTicketCode(issued[0]!.code, secret), secret)!;
    const at = new Date(NOW.getTime() + 60_000);

    const outcomes = await Promise.all([
      checkInTicket(db, { code, eventId, staffId: steward!.id, now: at }),
      checkInTicket(db, { code, eventId, staffId: marshal!.id, now: at }),
    ]);
    const admitted = outcomes.filter((outcome) => outcome.kind === "checked_in");
    const refused = outcomes.filter((outcome) => outcome.kind === "already_checked_in");
    expect(admitted).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      ticket: { ticketTypeName: "Entry" },
      checkedInAt: at,
      checkedInBy: expect.stringMatching(/^Buyer \d+$/),
    });
  });

  it("knows no ticket for another event, and refuses a cancelled one", async () => {
    const { db } = database();
    const { tickets: issued } = await issuedTickets(2);
    const other = await createTestEvent(db, { types: [{ name: "Entry" }] });
    const [steward] = await createBuyers(db, 1);
    const [first, second] = issued as [{ id: string; code: string }, { id: string; code: string }];
    expect(
      await checkInTicket(db, { code: first.code, eventId: other.eventId, staffId: steward!.id, now: NOW }),
    ).toEqual({
      kind: "not_found",
    });
    const { eventId } = (
      await db.select({ eventId: tickets.eventId }).from(tickets).where(eq(tickets.id, second.id))
    )[0]!;
    await db.update(tickets).set({ status: "cancelled" }).where(eq(tickets.id, second.id));
    expect(await checkInTicket(db, { code: second.code, eventId, staffId: steward!.id, now: NOW })).toMatchObject({
      kind: "not_valid",
      status: "cancelled",
    });
  });
});
