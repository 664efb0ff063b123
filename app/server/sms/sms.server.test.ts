import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outboundMessages } from "../../../db/schema";
import { freshDatabasePerFile } from "../db/test-database";
import { parseEnv } from "../env.server";
import { smsTransportFor } from "../messages.server";
import { deliverSms, mailboxSmsTransport, SmsDeliveryError, twilioTransport } from "./sms.server";

const database = freshDatabasePerFile();

const config = { accountSid: "AC0123456789abcdef", authToken: "secret-token", from: "+447700900000" };

async function messagesTo(to: string) {
  return database()
    .db.select({
      channel: outboundMessages.channel,
      text: outboundMessages.text,
      transport: outboundMessages.transport,
      providerId: outboundMessages.providerId,
    })
    .from(outboundMessages)
    .where(eq(outboundMessages.to, to));
}

type Captured = { method?: string; url?: string; authorization?: string; contentType?: string; form: URLSearchParams };

describe("twilioTransport", () => {
  /** A stand-in for api.twilio.com on loopback: records each request and answers as told. */
  const requests: Captured[] = [];
  let answer: { status: number; body: string; type?: string };
  let server: Server;
  let baseUrl: string;

  async function readBody(req: IncomingMessage) {
    let body = "";
    for await (const chunk of req) body += chunk;
    return body;
  }

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      requests.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        form: new URLSearchParams(await readBody(req)),
      });
      res.writeHead(answer.status, { "content-type": answer.type ?? "application/json" }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    requests.length = 0;
  });

  it("posts the message to Twilio's Messages API and records its sid, not its code", async () => {
    answer = { status: 201, body: JSON.stringify({ sid: "SM1234567890abcdef", status: "queued" }) };
    const transport = twilioTransport(config, fetch, baseUrl);

    await deliverSms(database().db, transport, { to: "+447700900123", text: "Your code is 482913" });

    expect(requests).toHaveLength(1);
    const [request] = requests as [Captured];
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/2010-04-01/Accounts/AC0123456789abcdef/Messages.json");
    expect(request.authorization).toBe(`Basic ${Buffer.from("AC0123456789abcdef:secret-token").toString("base64")}`);
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(request.form)).toEqual({
      To: "+447700900123",
      From: "+447700900000",
      Body: "Your code is 482913",
    });

    expect(await messagesTo("+447700900123")).toEqual([
      { channel: "sms", text: null, transport: "twilio", providerId: "SM1234567890abcdef" },
    ]);
  });

  it("raises Twilio's error with its status and records nothing", async () => {
    answer = {
      status: 400,
      body: JSON.stringify({
        code: 21211,
        message: "The 'To' number +44123 is not a valid phone number.",
        status: 400,
      }),
    };
    const transport = twilioTransport(config, fetch, baseUrl);

    const failure = deliverSms(database().db, transport, { to: "+44123", text: "Your code is 111111" });
    await expect(failure).rejects.toBeInstanceOf(SmsDeliveryError);
    await expect(failure).rejects.toMatchObject({
      status: 400,
      message: "The 'To' number +44123 is not a valid phone number.",
    });
    expect(requests).toHaveLength(1);
    expect(await messagesTo("+44123")).toEqual([]);
  });

  it("names the status when the error answer is not JSON", async () => {
    answer = { status: 503, body: "<html>Service Unavailable</html>", type: "text/html" };
    const transport = twilioTransport(config, fetch, baseUrl);

    await expect(transport.send({ to: "+447700900124", text: "hi" })).rejects.toMatchObject({
      name: "SmsDeliveryError",
      status: 503,
      message: "Twilio answered 503",
    });
  });

  it("is chosen when all three Twilio settings are set", () => {
    const base = { AUTH_SECRET: "s".repeat(32), DATA_DIR: "unused" };
    const twilio = { TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "token", TWILIO_FROM: "+447700900000" };
    expect(smsTransportFor(parseEnv({ ...base, ...twilio })).name).toBe("twilio");
    expect(smsTransportFor(parseEnv(base))).toBe(mailboxSmsTransport);
  });
});

describe("mailboxSmsTransport", () => {
  it("stores the text in the mailbox", async () => {
    const id = await deliverSms(database().db, mailboxSmsTransport, { to: "+447700900125", text: "Doors open at 9" });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await messagesTo("+447700900125")).toEqual([
      { channel: "sms", text: "Doors open at 9", transport: "mailbox", providerId: null },
    ]);
  });
});
