import { describe, expect, it } from "vitest";
import {
  eventRemaining,
  eventSalesSummary,
  inPresale,
  isFewLeft,
  mayBuy,
  type SalesEvent,
  type SalesTicketType,
  salesWindow,
  ticketPrice,
  ticketRemaining,
  ticketSalesState,
} from "./sales";

const at = (iso: string) => new Date(iso);
const now = at("2027-06-01T12:00:00Z");

function event(overrides: Partial<SalesEvent> = {}): SalesEvent {
  return {
    status: "published",
    startsAt: at("2027-06-12T09:00:00Z"),
    endsAt: at("2027-06-12T17:00:00Z"),
    salesStartAt: null,
    salesEndAt: null,
    capacity: null,
    ...overrides,
  };
}

function ticket(overrides: Partial<SalesTicketType> = {}): SalesTicketType {
  return { price: 1500, capacity: 100, sold: 0, salesStartAt: null, salesEndAt: null, hidden: false, ...overrides };
}

const state = (e: SalesEvent, type: SalesTicketType, types: SalesTicketType[] = [type], when = now) =>
  ticketSalesState(e, type, types, when);

describe("sales window", () => {
  it("takes the ticket type's own dates first, then the event's, and closes at the event's end", () => {
    const e = event({ salesStartAt: at("2027-05-01T00:00:00Z"), salesEndAt: at("2027-06-10T00:00:00Z") });
    expect(salesWindow(e, ticket())).toEqual({ opensAt: e.salesStartAt, closesAt: e.salesEndAt });
    const own = ticket({ salesStartAt: at("2027-05-15T00:00:00Z"), salesEndAt: at("2027-06-05T00:00:00Z") });
    expect(salesWindow(e, own)).toEqual({ opensAt: own.salesStartAt, closesAt: own.salesEndAt });
    expect(salesWindow(event(), ticket())).toEqual({ opensAt: null, closesAt: at("2027-06-12T17:00:00Z") });
  });

  it("is not yet open before it opens, open from the very moment it opens, and closed from the moment it closes", () => {
    const opensAt = at("2027-06-05T18:00:00Z");
    const closesAt = at("2027-06-10T18:00:00Z");
    const type = ticket({ salesStartAt: opensAt, salesEndAt: closesAt });
    expect(state(event(), type)).toEqual({ kind: "not_yet", opensAt });
    expect(state(event(), type, [type], new Date(opensAt.getTime() - 1))).toEqual({ kind: "not_yet", opensAt });
    expect(state(event(), type, [type], opensAt)).toMatchObject({ kind: "on_sale" });
    expect(state(event(), type, [type], new Date(closesAt.getTime() - 1))).toMatchObject({ kind: "on_sale" });
    expect(state(event(), type, [type], closesAt)).toEqual({ kind: "ended" });
  });

  it("follows the event's window when the ticket type sets none", () => {
    const e = event({ salesStartAt: at("2027-06-03T00:00:00Z") });
    expect(state(e, ticket())).toEqual({ kind: "not_yet", opensAt: at("2027-06-03T00:00:00Z") });
    const closed = event({ salesEndAt: at("2027-05-31T00:00:00Z") });
    expect(state(closed, ticket())).toEqual({ kind: "ended" });
  });

  it("keeps selling during the event and stops when it ends", () => {
    const e = event();
    expect(state(e, ticket(), undefined, at("2027-06-12T12:00:00Z"))).toMatchObject({ kind: "on_sale" });
    expect(state(e, ticket(), undefined, at("2027-06-12T17:00:00Z"))).toEqual({ kind: "ended" });
  });
});

describe("places left", () => {
  it("counts sold tickets and holds against the ticket type's capacity", () => {
    expect(ticketRemaining(event(), ticket({ capacity: 50, sold: 20 }), [])).toBe(30);
    expect(ticketRemaining(event(), ticket({ capacity: 50, sold: 20, held: 5 }), [])).toBe(25);
    expect(ticketRemaining(event(), ticket({ capacity: null, sold: 20 }), [])).toBeNull();
  });

  it("never goes below zero, even when holds overrun", () => {
    expect(ticketRemaining(event(), ticket({ capacity: 10, sold: 8, held: 5 }), [])).toBe(0);
    expect(eventRemaining(event({ capacity: 10 }), [ticket({ sold: 8, held: 5 })])).toBe(0);
  });

  it("is limited by the event's capacity, shared across every type including hidden ones", () => {
    const e = event({ capacity: 100 });
    const adult = ticket({ capacity: 80, sold: 50 });
    const child = ticket({ capacity: null, sold: 20, held: 5 });
    const crew = ticket({ capacity: 20, sold: 10, hidden: true });
    const types = [adult, child, crew];
    expect(eventRemaining(e, types)).toBe(15);
    expect(ticketRemaining(e, adult, types)).toBe(15);
    expect(ticketRemaining(e, child, types)).toBe(15);
    // The type's own limit wins when it is the tighter one.
    expect(ticketRemaining(e, ticket({ capacity: 12, sold: 2 }), types)).toBe(10);
    expect(eventRemaining(event(), types)).toBeNull();
  });

  it("is sold out when the event is full even though each type has room", () => {
    const e = event({ capacity: 60 });
    const types = [ticket({ capacity: 50, sold: 30 }), ticket({ capacity: 50, sold: 30 })];
    for (const type of types) expect(state(e, type, types)).toEqual({ kind: "sold_out" });
    expect(eventSalesSummary(e, types, now).state).toBe("sold_out");
  });

  it("is sold out while the last places are held in carts", () => {
    const type = ticket({ capacity: 10, sold: 7, held: 3 });
    expect(state(event(), type)).toEqual({ kind: "sold_out" });
    expect(state(event(), { ...type, held: 2 })).toEqual({ kind: "on_sale", remaining: 1, fewLeft: true });
  });

  it("says sold out rather than not yet on sale when nothing would be left to buy", () => {
    const type = ticket({ capacity: 10, sold: 10, salesStartAt: at("2027-06-05T00:00:00Z") });
    expect(state(event(), type)).toEqual({ kind: "sold_out" });
  });
});

describe("few left", () => {
  it("starts at a tenth of the places, and never below five", () => {
    expect(isFewLeft(100, 1000)).toBe(true);
    expect(isFewLeft(101, 1000)).toBe(false);
    expect(isFewLeft(5, 20)).toBe(true);
    expect(isFewLeft(6, 20)).toBe(false);
    expect(isFewLeft(1, 1)).toBe(true);
  });

  it("is never said of unlimited or sold-out places", () => {
    expect(isFewLeft(null, 100)).toBe(false);
    expect(isFewLeft(3, null)).toBe(false);
    expect(isFewLeft(0, 100)).toBe(false);
  });

  it("measures against the type's capacity, or the event's when the type has none", () => {
    const e = event({ capacity: 1000 });
    const unlimited = ticket({ capacity: null, sold: 920 });
    expect(state(e, unlimited)).toEqual({ kind: "on_sale", remaining: 80, fewLeft: true });
    const small = ticket({ capacity: 40, sold: 20 });
    expect(state(e, small)).toEqual({ kind: "on_sale", remaining: 20, fewLeft: false });
    // A nearly full event makes every type scarce, whatever room the type itself has.
    const busy = [ticket({ capacity: 800, sold: 10 }), ticket({ capacity: null, sold: 986 })];
    expect(state(e, busy[0]!, busy)).toEqual({ kind: "on_sale", remaining: 4, fewLeft: true });
  });
});

describe("a cancelled event", () => {
  it("sells nothing, whatever its window and stock", () => {
    const e = event({ status: "cancelled" });
    expect(state(e, ticket())).toEqual({ kind: "cancelled" });
    expect(state(e, ticket({ sold: 100 }))).toEqual({ kind: "cancelled" });
    expect(state(e, ticket(), undefined, at("2027-07-01T00:00:00Z"))).toEqual({ kind: "cancelled" });
    expect(eventSalesSummary(e, [ticket()], now)).toMatchObject({ state: "cancelled", fewLeft: false, opensAt: null });
    expect(eventSalesSummary(e, [ticket()], at("2027-07-01T00:00:00Z")).state).toBe("cancelled");
  });
});

describe("event sales summary", () => {
  it("is on sale from the cheapest ticket that can still be bought", () => {
    const types = [ticket({ price: 2400 }), ticket({ price: 900, capacity: 10, sold: 10 }), ticket({ price: 1200 })];
    expect(eventSalesSummary(event(), types, now)).toEqual({
      state: "on_sale",
      fromPrice: 1200,
      fewLeft: false,
      opensAt: null,
    });
  });

  it("counts tickets opening later towards the from-price", () => {
    const types = [ticket({ price: 2400 }), ticket({ price: 1000, salesStartAt: at("2027-06-05T00:00:00Z") })];
    expect(eventSalesSummary(event(), types, now).fromPrice).toBe(1000);
  });

  it("leaves hidden ticket types out of the price and the state", () => {
    const types = [ticket({ price: 0, hidden: true }), ticket({ price: 1800, capacity: 10, sold: 10 })];
    expect(eventSalesSummary(event(), types, now)).toMatchObject({ state: "sold_out", fromPrice: 1800 });
    expect(eventSalesSummary(event(), [ticket({ hidden: true })], now)).toEqual({
      state: "no_tickets",
      fromPrice: null,
      fewLeft: false,
      opensAt: null,
    });
    expect(eventSalesSummary(event(), [], now).state).toBe("no_tickets");
  });

  it("shows the last price when everything is sold out", () => {
    const types = [ticket({ price: 18900, capacity: 40, sold: 40 }), ticket({ price: 1500, capacity: 30, sold: 30 })];
    expect(eventSalesSummary(event(), types, now)).toEqual({
      state: "sold_out",
      fromPrice: 1500,
      fewLeft: false,
      opensAt: null,
    });
  });

  it("is not yet on sale until the first type opens, and says when", () => {
    const first = at("2027-06-03T18:00:00Z");
    const types = [
      ticket({ salesStartAt: at("2027-06-04T18:00:00Z") }),
      ticket({ salesStartAt: first }),
      ticket({ hidden: true, salesStartAt: at("2027-06-02T00:00:00Z") }),
    ];
    expect(eventSalesSummary(event(), types, now)).toMatchObject({ state: "not_yet", opensAt: first });
  });

  it("stays on sale while one type sells and another has yet to open", () => {
    const types = [ticket({ price: 2000 }), ticket({ price: 500, salesStartAt: at("2027-06-05T00:00:00Z") })];
    expect(eventSalesSummary(event(), types, now)).toMatchObject({
      state: "on_sale",
      fromPrice: 500,
      opensAt: at("2027-06-05T00:00:00Z"),
    });
  });

  it("has ended when every type's sales have closed before the event", () => {
    const e = event({ salesEndAt: at("2027-05-30T00:00:00Z") });
    expect(eventSalesSummary(e, [ticket({ price: 1000 }), ticket({ price: 800 })], now)).toEqual({
      state: "ended",
      fromPrice: 800,
      fewLeft: false,
      opensAt: null,
    });
  });

  it("is past once the event has ended, sold out or not", () => {
    const after = at("2027-06-12T17:00:00Z");
    expect(eventSalesSummary(event(), [ticket()], after).state).toBe("past");
    expect(eventSalesSummary(event(), [ticket({ capacity: 10, sold: 10 })], after).state).toBe("past");
    expect(eventSalesSummary(event(), [], after).state).toBe("past");
  });

  it("says few left only when every type on sale is running low", () => {
    const low = ticket({ capacity: 120, sold: 113 });
    const plenty = ticket({ capacity: 400, sold: 100 });
    const lowToo = ticket({ capacity: 400, sold: 372 });
    const soldOut = ticket({ capacity: 10, sold: 10 });
    expect(eventSalesSummary(event(), [low, plenty], now).fewLeft).toBe(false);
    expect(eventSalesSummary(event(), [low, lowToo], now).fewLeft).toBe(true);
    expect(eventSalesSummary(event(), [low, soldOut], now).fewLeft).toBe(true);
    expect(eventSalesSummary(event(), [soldOut], now).fewLeft).toBe(false);
  });
});

describe("member prices, members-only tickets and presales", () => {
  const member = { member: true };
  const everyone = { member: false };

  it("charges members the member price and everyone else the price", () => {
    const type = ticket({ price: 1500, memberPrice: 1000 });
    expect(ticketPrice(type, member)).toBe(1000);
    expect(ticketPrice(type, everyone)).toBe(1500);
    expect(ticketPrice(type)).toBe(1500);
    expect(ticketPrice(ticket({ memberPrice: null }), member)).toBe(1500);
  });

  it("sells a members-only type to members alone, and leaves it out of the public summary", () => {
    const crew = ticket({ membersOnly: true, price: 500 });
    expect(mayBuy(crew, member)).toBe(true);
    expect(mayBuy(crew, everyone)).toBe(false);
    expect(eventSalesSummary(event(), [crew, ticket({ price: 2000 })], now).fromPrice).toBe(2000);
  });

  it("opens a presale to members before the general sale, and only to them", () => {
    const e = event({ salesStartAt: at("2027-06-05T09:00:00Z") });
    const type = ticket({ memberSalesStartAt: at("2027-05-25T09:00:00Z") });
    expect(salesWindow(e, type, member).opensAt).toEqual(type.memberSalesStartAt);
    expect(salesWindow(e, type, everyone).opensAt).toEqual(e.salesStartAt);
    expect(ticketSalesState(e, type, [type], now, member).kind).toBe("on_sale");
    expect(ticketSalesState(e, type, [type], now, everyone)).toEqual({ kind: "not_yet", opensAt: e.salesStartAt });
    expect(inPresale(e, type, now)).toBe(true);
    expect(inPresale(e, type, at("2027-06-06T00:00:00Z"))).toBe(false);
    expect(inPresale(e, type, at("2027-05-20T00:00:00Z"))).toBe(false);
    // A presale date after the general sale changes nothing.
    const late = ticket({ memberSalesStartAt: at("2027-06-08T00:00:00Z") });
    expect(salesWindow(e, late, member).opensAt).toEqual(e.salesStartAt);
  });
});
