import { describe, expect, it } from "vitest";
import { isMailboxHost, type MailboxSetting, requireMailboxAccess } from "./mailbox.server";

const local: MailboxSetting = {
  mail: { name: "mailbox" },
  sms: { name: "mailbox" },
  env: { TRUST_PROXY: undefined, SITE_URL: "https://club.example" },
};

function request(ip: string, headers: Record<string, string> = {}) {
  return { ip, headers: new Headers({ host: "localhost:3000", ...headers }) };
}

/** The status the mailbox answers with, or "open". */
function answer(req: { ip: string; headers: Headers }, setting: MailboxSetting = local) {
  try {
    requireMailboxAccess(req, setting);
    return "open";
  } catch (error) {
    return (error as { init?: { status?: number } }).init?.status;
  }
}

describe("the local mailbox", () => {
  it("opens to this machine when it is where emails and texts go", () => {
    expect(answer(request("127.0.0.1"))).toBe("open");
    expect(answer(request("::1", { host: "[::1]:3000" }))).toBe("open");
    expect(answer(request("::ffff:127.0.0.1", { host: "127.0.0.1" }))).toBe("open");
  });

  it("does not exist when SMTP or Twilio deliver", () => {
    expect(answer(request("127.0.0.1"), { ...local, mail: { name: "smtp" } })).toBe(404);
    expect(answer(request("127.0.0.1"), { ...local, sms: { name: "twilio" } })).toBe(404);
  });

  it("is closed to every other address, whatever the visitor's role", () => {
    expect(answer(request("203.0.113.7"))).toBe(403);
    expect(answer(request("10.0.0.2"))).toBe(403);
  });

  it("is closed to a request forwarded by a proxy the site does not trust, though it connects from loopback", () => {
    expect(answer(request("127.0.0.1", { "x-forwarded-for": "203.0.113.7" }))).toBe(403);
    expect(answer(request("127.0.0.1", { forwarded: "for=203.0.113.7" }))).toBe(403);
    expect(answer(request("127.0.0.1", { "x-real-ip": "203.0.113.7" }))).toBe(403);
  });

  it("behind a trusted proxy, goes by the address the proxy forwards for", () => {
    const trusted = { ...local, env: { ...local.env, TRUST_PROXY: true } };
    expect(answer(request("203.0.113.7", { "x-forwarded-for": "203.0.113.7" }), trusted)).toBe(403);
    expect(answer(request("127.0.0.1", { "x-forwarded-for": "127.0.0.1" }), trusted)).toBe("open");
  });

  it("answers only its own names, so a page on another name that resolves here cannot read it", () => {
    expect(answer(request("127.0.0.1", { host: "attacker.example" }))).toBe(403);
    expect(answer(request("127.0.0.1", { host: "attacker.example:3000" }))).toBe(403);
    expect(answer(request("127.0.0.1", { host: "club.example" }))).toBe("open");
    expect(isMailboxHost("LOCALHOST:8080", local.env.SITE_URL)).toBe(true);
    expect(isMailboxHost("localhost.attacker.example", local.env.SITE_URL)).toBe(false);
    expect(isMailboxHost("[::1]", local.env.SITE_URL)).toBe(true);
    expect(isMailboxHost(null, local.env.SITE_URL)).toBe(false);
  });
});
