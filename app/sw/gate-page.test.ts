import { describe, expect, it } from "vitest";
import { gatePageOfData, isGatePage } from "./gate-page";

const origin = "https://club.example";
const id = "0b9c8a52-1f0e-4c1c-9d55-2f3e4a5b6c7d";
const at = (path: string) => new URL(path, origin);

describe("the gate pages the worker keeps", () => {
  it("are a gate worker's page and the organizer's Check-in tab, with no query string", () => {
    expect(isGatePage(at(`/members/gate/${id}`), origin)).toBe(true);
    expect(isGatePage(at(`/admin/events/${id}/checkin`), origin)).toBe(true);
    expect(isGatePage(at(`/admin/events/${id}/checkin?q=smith`), origin)).toBe(false);
    expect(isGatePage(at(`/admin/events/${id}/checkin/admissions.json`), origin)).toBe(false);
    expect(isGatePage(at(`/admin/events/${id}`), origin)).toBe(false);
    expect(isGatePage(at("/members/gate/not-an-id"), origin)).toBe(false);
    expect(isGatePage(new URL(`/members/gate/${id}`, "https://elsewhere.example"), origin)).toBe(false);
  });

  it("are found from the data React Router asks for when the app opens one", () => {
    expect(gatePageOfData(at(`/members/gate/${id}.data`), origin)).toBe(`${origin}/members/gate/${id}`);
    expect(gatePageOfData(at(`/admin/events/${id}/checkin.data?_routes=x`), origin)).toBe(
      `${origin}/admin/events/${id}/checkin`,
    );
    expect(gatePageOfData(at(`/members/gate/${id}`), origin)).toBeNull();
    expect(gatePageOfData(at("/members/card.data"), origin)).toBeNull();
  });
});
