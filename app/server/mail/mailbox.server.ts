import { desc, eq } from "drizzle-orm";
import { data } from "react-router";
import { outboundMessages } from "../../../db/schema";
import type { Db } from "../db/client.server";
import type { Env } from "../env.server";
import type { SmsTransport } from "../sms/sms.server";
import type { MailTransport } from "./mail.server";

/** Newest first; `to` narrows the list to one recipient (an email address or a phone number). */
export async function listOutboundMessages(db: Db, limit = 100, to?: string) {
  const rows = await db
    .select({
      id: outboundMessages.id,
      channel: outboundMessages.channel,
      to: outboundMessages.to,
      subject: outboundMessages.subject,
      text: outboundMessages.text,
      html: outboundMessages.html,
      transport: outboundMessages.transport,
      sentAt: outboundMessages.sentAt,
    })
    .from(outboundMessages)
    .where(to ? eq(outboundMessages.to, to) : undefined)
    .orderBy(desc(outboundMessages.sentAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt.toISOString() }));
}

function isLoopback(ip: string) {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

/** Headers a proxy adds to say whom it forwards for. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/**
 * The request comes from this machine itself. A proxy on the same host connects from loopback
 * for every visitor: unless the site trusts it (`TRUST_PROXY`, and then the address is the one it
 * forwards for), a request that went through one is not local.
 */
function isLocalRequest(request: { ip: string; headers: Headers }, trustProxy: boolean | undefined) {
  if (!trustProxy && FORWARDING_HEADERS.some((name) => request.headers.has(name))) return false;
  return isLoopback(request.ip);
}

/** The name a Host header asks for, without its port; `[::1]` keeps its brackets. */
function hostName(host: string) {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
  return name.toLowerCase();
}

/**
 * A page on another name that resolves to this machine (DNS rebinding) is a visitor's browser
 * reading the mailbox from loopback: only this machine's own names and the site's are answered.
 */
export function isMailboxHost(host: string | null, siteUrl: string) {
  if (!host) return false;
  const name = hostName(host);
  return ["localhost", "127.0.0.1", "[::1]", new URL(siteUrl).hostname.toLowerCase()].includes(name);
}

export type MailboxSetting = {
  mail: Pick<MailTransport, "name">;
  sms: Pick<SmsTransport, "name">;
  env: Pick<Env, "TRUST_PROXY" | "SITE_URL">;
};

/**
 * The mailbox shows everyone's reset links, sign-in links and codes. It exists only where it is
 * the delivery (no SMTP, no Twilio), and answers only this machine, asked by one of its own names.
 * No role opens it: an admin reading a member's sign-in link could sign in as them.
 */
export function requireMailboxAccess(request: { ip: string; headers: Headers }, { mail, sms, env }: MailboxSetting) {
  if (mail.name !== "mailbox" || sms.name !== "mailbox") throw data("Not found", { status: 404 });
  if (!isLocalRequest(request, env.TRUST_PROXY) || !isMailboxHost(request.headers.get("host"), env.SITE_URL)) {
    throw data("The mailbox can be read only on this machine", { status: 403 });
  }
}
